package io.shellgate.judge.internal.analysis.builtins;

import io.shellgate.judge.Dialect;
import io.shellgate.judge.internal.analysis.model.Field;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import static org.assertj.core.api.Assertions.assertThat;

/** Shells' own command lines, read with each shell's grammar (checked against bash, zsh and dash by hand). */
class ShellCommandLineTest {

    private static ShellCommandLine.Parsed parse(ShellCommandLine.Family family, String... args) {
        Dialect d = family == ShellCommandLine.Family.ZSH ? Dialect.ZSH : family == ShellCommandLine.Family.BASH ? Dialect.BASH
                : Dialect.SH;
        return ShellCommandLine.parse(family, d, Arrays.stream(args).map(Field::literal).toList());
    }

    @Test
    void zshTakesTheRestOfTheWordAsTheOptionOfDashO() {
        // zsh -onotify -c CODE: -o takes "notify", and -c is still the command flag
        ShellCommandLine.Parsed p = parse(ShellCommandLine.Family.ZSH, "-onotify", "-c", "${1}", "_", "rm -rf /");
        assertThat(p.mode()).isEqualTo(ShellCommandLine.Mode.COMMAND);
        assertThat(p.code().text()).isEqualTo("${1}");
        assertThat(p.args().stream().map(Field::text).toList()).containsExactly("_", "rm -rf /");
        assertThat(p.options()).containsExactly(new ShellCommandLine.Option("notify", true, false));
    }

    @Test
    void bashTakesTheNextWordAsTheOptionOfDashO() {
        // bash -onotify -c CODE: each letter of -onotify is an option, -o takes the next word ("-c"), and
        // -y is no bash option (bash stops with "invalid option"): nothing here is a command flag
        ShellCommandLine.Parsed p = parse(ShellCommandLine.Family.BASH, "-onotify", "-c", "ls");
        assertThat(p.problem()).contains("-y");
        ShellCommandLine.Parsed named = parse(ShellCommandLine.Family.BASH, "-o", "-c", "ls");
        assertThat(named.mode()).isEqualTo(ShellCommandLine.Mode.FILE);
        assertThat(named.options()).containsExactly(new ShellCommandLine.Option("-c", true, false));
        ShellCommandLine.Parsed bundle = parse(ShellCommandLine.Family.BASH, "-co", "notify", "echo $-");
        assertThat(bundle.mode()).isEqualTo(ShellCommandLine.Mode.COMMAND);
        assertThat(bundle.code().text()).isEqualTo("echo $-");
    }

    @Test
    void aShellWithoutOperandsReadsItsInput() {
        for (List<String> args : List.of(List.of("--"), List.of("-"), List.of("-v"), List.of("-x", "-e"), List.of("-s", "a"),
                List.of("--norc"))) {
            assertThat(parse(ShellCommandLine.Family.BASH, args.toArray(String[]::new)).mode()).as("%s", args)
                    .isEqualTo(ShellCommandLine.Mode.STDIN);
        }
        assertThat(parse(ShellCommandLine.Family.BASH, "--", "script.sh").mode()).isEqualTo(ShellCommandLine.Mode.FILE);
        assertThat(parse(ShellCommandLine.Family.BASH, "--version").mode()).isEqualTo(ShellCommandLine.Mode.QUERY);
    }

    @Test
    void bashLongOptionsAreSpelledOutAndComeFirst() {
        assertThat(parse(ShellCommandLine.Family.BASH, "--vers").problem()).isNotNull();
        assertThat(parse(ShellCommandLine.Family.BASH, "-x", "--norc", "-c", "ls").problem()).isNotNull();
        assertThat(parse(ShellCommandLine.Family.BASH, "--rcfile", "x", "-c", "ls").startup()).isEqualTo("x");
    }

    @Test
    void zshEndsItsOptionsAtDashB() {
        ShellCommandLine.Parsed p = parse(ShellCommandLine.Family.ZSH, "-b", "-c", "ls");
        assertThat(p.mode()).isEqualTo(ShellCommandLine.Mode.FILE);
        assertThat(p.code().text()).isEqualTo("-c");
    }

    @Test
    void anUnknownLetterIsAProblem() {
        assertThat(parse(ShellCommandLine.Family.POSIX, "-Q", "-c", "ls").problem()).isNotNull();
        assertThat(parse(ShellCommandLine.Family.BASH, "-O", "dotglob", "-c", "ls").options())
                .containsExactly(new ShellCommandLine.Option("dotglob", true, true));
    }
}
