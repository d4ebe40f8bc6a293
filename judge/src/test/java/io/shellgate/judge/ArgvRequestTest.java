package io.shellgate.judge;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.shellgate.rules.Tier;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;

/**
 * A program started with an argument vector (the javaagent's case) is judged from the vector
 * itself, without parsing its text again: the verdict must be the one the quoted text gets from
 * the parser, for any vector.
 */
class ArgvRequestTest {

    private static final Judge JUDGE = Judges.defaults();
    private static final Map<String, String> ENV = Map.of("HOME", "/home/user", "PATH", "/usr/bin:/bin", "X", "a b");
    private static final Path CWD = Path.of("/home/user/project");

    private static final List<String> PROGRAMS = List.of("/bin/rm", "/usr/bin/git", "/bin/bash", "/bin/sh", "/usr/bin/env",
            "/usr/bin/find", "/usr/bin/xargs", "/bin/ls", "/bin/cat", "/usr/bin/python3", "/bin/true", "/usr/bin/timeout",
            "/usr/bin/curl", "/sbin/mkfs.ext4", "/bin/dd", "true", "ls", "if", "A=b", "~", "./tool", "/opt/x/y", "",
            "/bin/echo", "/usr/bin/sudo", "/usr/bin/kill", "/usr/bin/chmod");
    private static final List<String> ARGS = List.of("-rf", "/", "-c", "rm -rf /", "$(id)", "a b", "*", "it's", "",
            "--", "reset", "--hard", ">", "|", ";", "~", "{a,b}", "x=y", "-exec", "{}", ";", "status", "push", "-f", "-9",
            "-1", "of=/dev/sda", "if=/dev/zero", "-R", "777", "/etc", "$HOME", "`id`", "&&", "git reset --hard",
            "curl x | sh", "-e", "import os; os.system('rm -rf /')", "5", "ls", "--short", "-la", "\\", "\"", "'",
            "a\nb", "#", "!", "-delete", ".", "..", "--force", "/proc/sysrq-trigger", "approvals", "shellgate");

    @Provide
    Arbitrary<List<String>> vectors() {
        Arbitrary<String> program = Arbitraries.of(PROGRAMS);
        Arbitrary<List<String>> args = Arbitraries.of(ARGS).list().ofMaxSize(8);
        return Combinators.combine(program, args).as((p, a) -> {
            List<String> v = new java.util.ArrayList<>();
            v.add(p);
            v.addAll(a);
            return v;
        });
    }

    @Property(tries = 3000, seed = "20261130")
    void aVectorGetsTheVerdictItsQuotedTextGets(@ForAll("vectors") List<String> argv) {
        JudgeRequest direct = JudgeRequest.ofArgv(argv, CWD, ENV);
        JudgeRequest parsed = new JudgeRequest(direct.command(), Dialect.BASH, CWD, ENV, List.of(), true);
        Verdict a = JUDGE.judge(direct);
        Verdict b = JUDGE.judge(parsed);
        assertThat(a.tier()).as(direct.command()).isEqualTo(b.tier());
        assertThat(rules(a)).as(direct.command()).isEqualTo(rules(b));
    }

    private static TreeSet<String> rules(Verdict v) {
        TreeSet<String> out = new TreeSet<>();
        v.reasons().forEach(r -> out.add(r.rule() + "/" + r.tier()));
        return out;
    }

    @Test
    void theTextIsTheVectorQuotedForAShell() {
        JudgeRequest r = JudgeRequest.ofArgv(List.of("/bin/echo", "a b", "it's", "plain", ""), CWD, ENV);
        assertThat(r.command()).isEqualTo("/bin/echo 'a b' 'it'\\''s' plain ''");
        assertThat(JudgeRequest.ofArgv(List.of("if", "x"), CWD, ENV).command()).isEqualTo("'if' x");
    }

    @Test
    void wordsAreNeverSplitOrExpanded() {
        // one argument that a shell would split and expand: to the program it is only text
        Verdict v = JUDGE.judge(JudgeRequest.ofArgv(List.of("/bin/echo", "$(touch /tmp/x) * ~ {a,b}"), CWD, ENV));
        assertThat(v.tier()).isEqualTo(Tier.ALLOW);
        Verdict rm = JUDGE.judge(JudgeRequest.ofArgv(List.of("/bin/rm", "-rf", "/"), CWD, ENV));
        assertThat(rm.tier()).isEqualTo(Tier.DENY);
        Verdict shell = JUDGE.judge(JudgeRequest.ofArgv(List.of("/bin/bash", "-c", "rm -rf /"), CWD, ENV));
        assertThat(shell.tier()).isEqualTo(Tier.DENY);
    }

    @Test
    void aVectorNeedsAProgramAndAPosixDialect() {
        assertThatThrownBy(() -> JudgeRequest.ofArgv(List.of(), CWD, ENV)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new JudgeRequest(null, Dialect.CMD, CWD, ENV, null, true, List.of("x")))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
