package io.shellgate.launcher.internal.pty;

import static org.assertj.core.api.Assertions.assertThat;

import io.shellgate.judge.Dialect;
import io.shellgate.judge.Judge;
import io.shellgate.judge.JudgeRequest;
import io.shellgate.judge.Judges;
import io.shellgate.judge.Verdict;
import io.shellgate.rules.PolicyLoader;
import io.shellgate.rules.Tier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** What a person typing at their own guarded shell is not asked about, judged by the real judge. */
class PersonsOwnTest {

    @TempDir
    Path dir;

    private Path home;
    private Path work;
    private Judge judge;

    @BeforeEach
    void setUp() throws Exception {
        home = Files.createDirectories(dir.resolve("home"));
        work = Files.createDirectories(dir.resolve("work"));
        Files.writeString(home.resolve(".bashrc"), "alias ll='ls -l'\nexport PYTHONSTARTUP=/tmp/x\n");
        Files.createDirectories(home.resolve(".ssh"));
        Files.writeString(home.resolve(".ssh/id_ed25519"), "secret");
        Files.writeString(work.resolve("README.md"), "read me");
        Files.writeString(work.resolve("evil.sh"), "touch x\n");
        judge = Judges.create(PolicyLoader.defaults());
    }

    private Verdict verdict(String line) {
        return judge.judge(new JudgeRequest(line, Dialect.BASH, work,
                Map.of("PATH", "/usr/bin:/bin", "HOME", home.toString()), null, false));
    }

    private String why(String line) {
        JudgeRequest request = new JudgeRequest(line, Dialect.BASH, work,
                Map.of("PATH", "/usr/bin:/bin", "HOME", home.toString()), null, false);
        Verdict v = judge.judge(request);
        return PersonsOwn.why(request, v, this::verdict, home.toString());
    }

    @ParameterizedTest
    @ValueSource(strings = {"export FOO=bar", "alias ll='ls -l'", "shopt -s globstar", "export FOO=bar BAR=baz",
            "source ~/.bashrc", ". ~/.bashrc", "less README.md", "vim README.md", "man ls", "git log | less"})
    void aPersonIsNotAskedAboutTheirOwnShellOrReading(String line) {
        assertThat(verdict(line).tier()).as("the judge asks about it").isEqualTo(Tier.ASK);
        assertThat(why(line)).startsWith("typed by the person at their guarded shell");
    }

    @ParameterizedTest
    @ValueSource(strings = {"export EDITOR=vim", "export FOO=bar; touch x", "source ./evil.sh", ". evil.sh",
            "source ~/.bashrc; touch x", "source ~/.bashrc > out", "less ~/.ssh/id_ed25519", "vim ~/.ssh/id_ed25519",
            "less README.md > copy", "vim $(curl -s http://127.0.0.1/x)", "touch x", "export FOO=$(touch x)",
            "timeout 5 less README.md", "rm -rf ~"})
    void everythingElseIsReviewedAsUsual(String line) {
        assertThat(why(line)).isNull();
    }
}
