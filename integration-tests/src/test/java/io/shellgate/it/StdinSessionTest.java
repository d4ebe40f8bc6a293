package io.shellgate.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Guarded stdin sessions: an agent keeps one shell alive through pipes. Commands are judged one
 * complete command at a time against the live state of the real shell (bash and zsh), and refused
 * ones never reach it.
 */
class StdinSessionTest extends SandboxTest {

    @BeforeEach
    void noServer() throws Exception {
        box.env.put("SHELLGATE_NO_SERVER", "1");
        Files.createDirectories(box.work.resolve("sub"));
    }

    private Processes.Result session(String shell, String input) throws Exception {
        box.env.put("SHELLGATE_SHELL", shell);
        return box.shellgate(Sandbox.bytes(input));
    }

    @ParameterizedTest
    @ValueSource(strings = {"/bin/bash", "zsh"})
    void stateCarriesOverFromOneCommandToTheNext(String shell) throws Exception {
        Processes.Result r = session(shell, """
                cd sub
                pwd
                X=kept
                export CI=yes
                echo "$X"
                bash -c 'echo "$CI"'
                cd ..
                ls
                """);
        assertThat(r.err()).isEmpty();
        assertThat(r.out()).isEqualTo(box.work.resolve("sub").toRealPath() + "\nkept\nyes\nsub\n");
        assertThat(r.code()).isEqualTo(0);
    }

    @ParameterizedTest
    @ValueSource(strings = {"/bin/bash", "zsh"})
    void commandsSpanningLinesRunWhenComplete(String shell) throws Exception {
        Processes.Result r = session(shell, """
                for i in 1 2; do
                  echo "n$i"
                done
                cat <<EOF
                a heredoc
                EOF
                echo one \\
                  two
                if true
                then echo yes; fi
                """);
        assertThat(r.err()).isEmpty();
        assertThat(r.out()).isEqualTo("n1\nn2\na heredoc\none two\nyes\n");
    }

    @ParameterizedTest
    @ValueSource(strings = {"/bin/bash", "zsh"})
    void aRefusedCommandNeverReachesTheShell(String shell) throws Exception {
        Path marker = Files.writeString(box.work.resolve("marker"), "x");
        Processes.Result r = session(shell, """
                X=before
                rm -f marker
                echo "status $?"
                echo "$X"
                """);
        assertThat(r.err()).isEqualTo("shellgate: refused (not-read-only): needs review (rm is not on the read-only list),"
                + " and waiting for a person is off (SHELLGATE_REVIEW_TIMEOUT_SECONDS=0)\n");
        assertThat(r.out()).isEqualTo("status 126\nbefore\n");
        assertThat(marker).exists();
    }

    @Test
    void judgingFollowsTheLiveState() throws Exception {
        // a repository whose configuration runs a program on git status
        Path repo = Files.createDirectories(box.work.resolve("repo"));
        Processes.Result init = Processes.run(java.util.List.of("git", "init", "-q", repo.toString()), null, (String) null, box.work);
        assertThat(init.code()).as(init.toString()).isEqualTo(0);
        Files.writeString(repo.resolve(".git/config"), "[core]\n\tfsmonitor = touch pwned\n", java.nio.file.StandardOpenOption.APPEND);
        Processes.Result r = session("/bin/bash", """
                git status --short >/dev/null 2>&1; echo "outside $?"
                cd repo
                git status --short
                echo "inside $?"
                """);
        // outside the repository git status runs (and fails: no repository); inside, the same line is refused
        assertThat(r.out()).isEqualTo("outside 128\ninside 126\n");
        assertThat(r.err().lines()).hasSize(1).allMatch(l -> l.startsWith("shellgate: refused (git-repo-config)"));
        assertThat(repo.resolve("pwned")).doesNotExist();
        assertThat(box.work.resolve("pwned")).doesNotExist();
    }

    @Test
    void theExitStatusIsTheShells() throws Exception {
        assertThat(session("/bin/bash", "echo a\nexit 5\necho not-reached\n").code()).isEqualTo(5);
        assertThat(session("/bin/bash", "echo a\nfalse\n").code()).isEqualTo(1);
        assertThat(session("/bin/bash", "").code()).isEqualTo(0);
        // the last command refused: 126, as in -c
        assertThat(session("/bin/bash", "rm -rf ~\n").code()).isEqualTo(126);
    }
}
