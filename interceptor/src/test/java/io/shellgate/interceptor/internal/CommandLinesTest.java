package io.shellgate.interceptor.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CommandLinesTest {

    @TempDir
    Path dir;

    @Test
    void quotesEveryWordThatIsNotPlainlyOneWord() {
        JudgeLine line = CommandLines.of(List.of("/usr/bin/echo", "a;rm", "x y", "it's", "", "$HOME", "of=/dev/sda"), dir, "/usr/bin");
        assertThat(line).isEqualTo(new JudgeLine("/usr/bin/echo 'a;rm' 'x y' 'it'\\''s' '' '$HOME' of=/dev/sda",
                List.of("/usr/bin/echo", "a;rm", "x y", "it's", "", "$HOME", "of=/dev/sda")));
    }

    @Test
    void bareWordsAndAssignableNamesAreTheShellsOwn() {
        assertThat(List.of("a", "of=/dev/sda", "x.tar.gz", "user@host:/p", "-rf", "100%", "a,b+c_d"))
                .allMatch(CommandLines::isBare);
        assertThat(List.of("", "a b", "$x", "a;b", "it's", "~", "*", "é", "a\nb")).noneMatch(CommandLines::isBare);
        assertThat(List.of("A", "_", "_x1", "PATH", "ld_preload")).allMatch(CommandLines::isName);
        assertThat(List.of("", "1A", "A-B", "A.B", "BASH_FUNC_f%%", "É")).noneMatch(CommandLines::isName);
    }

    @Test
    void aProgramNameIsNeverAKeywordOrAnAssignment() {
        assertThat(CommandLines.of(List.of("if", "x"), dir, "").command()).isEqualTo("'if' x");
        assertThat(CommandLines.of(List.of("A=b", "x"), dir, "").command()).isEqualTo("'A=b' x");
    }

    @Test
    void resolvesABareNameInTheJvmsPathAndARelativePathInTheChildsDirectory() throws Exception {
        Path bin = Files.createDirectories(dir.resolve("bin"));
        Path tool = Files.writeString(bin.resolve("tool"), "#!/bin/sh\n");
        Files.writeString(bin.resolve("plain"), "not executable");
        Files.setPosixFilePermissions(tool, PosixFilePermissions.fromString("rwxr-xr-x"));
        assertThat(CommandLines.resolve("tool", dir, "/nonexistent:" + bin)).isEqualTo(tool);
        assertThat(CommandLines.resolve("plain", dir, bin.toString())).isNull();
        assertThat(CommandLines.resolve("./bin/tool", dir, "")).isEqualTo(dir.resolve("./bin/tool"));
        assertThat(CommandLines.of(List.of("tool", "-x"), dir, bin.toString()).command()).isEqualTo(tool + " -x");
    }

    @Test
    void aShellsScriptStaysInItsVectorForTheJudgeToFollow() {
        // the judge checks the shell that runs it, then the script in its dialect
        assertThat(CommandLines.of(List.of("/usr/bin/pwsh", "-NoProfile", "-Command", "Get-Item x"), dir, ""))
                .isEqualTo(new JudgeLine("/usr/bin/pwsh -NoProfile -Command 'Get-Item x'",
                        List.of("/usr/bin/pwsh", "-NoProfile", "-Command", "Get-Item x")));
        assertThat(CommandLines.of(List.of("/bin/cmd", "/c", "dir"), dir, "").argv()).containsExactly("/bin/cmd", "/c", "dir");
    }

    @Test
    void whatTheChildsEnvironmentChangesIsJudgedAsAssignmentsInFrontOfTheCommand() {
        Map<String, String> jvm = Map.of("PATH", "/usr/bin:/bin", "HOME", "/home/u", "GONE", "x");
        Map<String, String> child = Map.of("PATH", "/usr/bin:/bin", "HOME", "/tmp/h", "LD_PRELOAD", "/tmp/e vil.so",
                "EMPTY", "", "BASH_FUNC_ls%%", "() { x; }");
        Map<String, String> assigned = CommandLines.assigned(child, jvm);
        // in name order; a name no shell can assign stays in the environment
        assertThat(assigned).containsExactly(Map.entry("EMPTY", ""), Map.entry("HOME", "/tmp/h"),
                Map.entry("LD_PRELOAD", "/tmp/e vil.so"));
        assertThat(CommandLines.before(child, jvm, assigned)).isEqualTo(Map.of("PATH", "/usr/bin:/bin", "HOME", "/home/u",
                "BASH_FUNC_ls%%", "() { x; }"));
        JudgeLine echo = CommandLines.of(List.of("/usr/bin/echo", "x"), dir, "");
        assertThat(CommandLines.withAssignments(echo, assigned))
                .isEqualTo(new JudgeLine("EMPTY='' HOME=/tmp/h LD_PRELOAD='/tmp/e vil.so' /usr/bin/echo x", null));
        assertThat(CommandLines.withAssignments(echo, Map.of())).isSameAs(echo);
    }

    @Test
    void filesOnTheStandardStreamsBecomeTheShellsRedirections() {
        JudgeLine echo = CommandLines.of(List.of("/usr/bin/echo", "x y"), dir, "");
        ProcessBuilder.Redirect[] streams = {ProcessBuilder.Redirect.from(new File("in put")),
            ProcessBuilder.Redirect.to(new File("/home/u/.bashrc")), ProcessBuilder.Redirect.appendTo(new File("err.log"))};
        // a relative name is the JVM's, not the child's directory
        assertThat(CommandLines.withRedirects(echo, streams, Path.of("/jvm")))
                .isEqualTo(new JudgeLine("/usr/bin/echo 'x y' < '/jvm/in put' > /home/u/.bashrc 2>> /jvm/err.log", null));
        assertThat(CommandLines.withRedirects(echo, new ProcessBuilder.Redirect[] {null, ProcessBuilder.Redirect.DISCARD,
            ProcessBuilder.Redirect.to(new File("/tmp/e"))}, dir).command()).isEqualTo("/usr/bin/echo 'x y' > /dev/null 2> /tmp/e");
        // pipes and inherited streams change nothing: the argument vector stays
        assertThat(CommandLines.withRedirects(echo, new ProcessBuilder.Redirect[] {ProcessBuilder.Redirect.PIPE,
            ProcessBuilder.Redirect.INHERIT, null}, dir)).isSameAs(echo);
        assertThat(CommandLines.withRedirects(echo, null, dir)).isSameAs(echo);
    }
}
