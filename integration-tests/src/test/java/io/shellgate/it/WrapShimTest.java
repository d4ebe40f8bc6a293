package io.shellgate.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.shellgate.it.agents.Hooks;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code shellgate wrap -- AGENT} where AGENT is installed behind a shim (pyenv, asdf, rbenv: a bash script found on
 * PATH that execs a second script of its manager, which execs the agent's program). The person's start runs; the
 * shells the agent starts afterwards are judged. The "agent" is a JVM (AgentTarget) that runs each line of its input
 * with {@code bash -c}, as agents' shell tools do.
 */
class WrapShimTest extends SandboxTest {

    private Path shims;

    @BeforeEach
    void shimmedAgent() throws Exception {
        shims = Files.createDirectories(box.root.resolve("shims"));
        Path manager = Files.createDirectories(box.root.resolve("manager/libexec"));
        // the manager's own script, as pyenv's libexec/pyenv: it finds the version and execs the program
        script(manager.resolve("manager"), """
                #!/usr/bin/env bash
                set -e
                [ "$1" = exec ] || exit 64
                shift
                program=$1
                shift
                case $program in
                  agent) exec %s -Xshare:auto -cp %s AgentTarget shell-lines "$@" ;;
                esac
                echo "no such program: $program" >&2
                exit 127
                """.formatted(Hooks.word(LauncherScriptTest.jdk("17").resolve("bin/java").toString()),
                        Hooks.word(AgentJvm.targetClasses().toString())));
        // the shim on PATH, as pyenv writes them
        script(shims.resolve("agent"), """
                #!/usr/bin/env bash
                set -e
                program="${0##*/}"
                export MANAGER_ROOT=%s
                exec "$MANAGER_ROOT/libexec/manager" exec "$program" "$@"
                """.formatted(Hooks.word(manager.getParent().toString())));
        // and one whose first line names a shell directly, as older asdf shims
        script(shims.resolve("agent-sh"), "#!/bin/sh\nexec " + Hooks.word(shims.resolve("agent").toString()) + " \"$@\"\n");
        // a shim in front of a shell, which the agent then starts itself
        script(shims.resolve("tool"), "#!/usr/bin/env bash\nexec bash \"$@\"\n");
        box.env.remove("SHELLGATE_SHELL");
        box.env.put("SHELL", "/bin/bash");
        box.env.put("PATH", shims + ":/usr/local/bin:/usr/bin:/bin");
    }

    @ParameterizedTest
    @ValueSource(strings = {"namespace", "path"})
    void anAgentBehindAShimStartsAndItsCommandsAreStillJudged(String layer) throws Exception {
        for (String shim : List.of("agent", "agent-sh")) {
            Processes.Result r = wrap(layer, List.of(shim, "bash", "-c"), "echo hello", "touch marker", "bash -c 'touch nested'",
                    "exec bash -c 'touch exec-ed'");
            assertThat(r.err()).as("%s %s: %s", layer, shim, r).startsWith("shellgate wrap: " + layer + " layer")
                    .doesNotContain("script-file");
            assertThat(r.out().lines().toList()).as("%s %s: %s", layer, shim, r).containsExactly("RAN exit=0 out=hello",
                    "RAN exit=126 out=", "RAN exit=126 out=", "RAN exit=126 out=");
            assertThat(r.err()).contains("shellgate: refused (not-read-only)");
            for (String marker : List.of("marker", "nested", "exec-ed")) {
                assertThat(box.work.resolve(marker)).as("%s %s", layer, shim).doesNotExist();
            }
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"namespace", "path"})
    void aShellStartedThroughTheSameShimByTheAgentIsJudged(String layer) throws Exception {
        // the agent starting a shim itself (no shell of its own around it) is a later start, not the person's
        Processes.Result r = wrap(layer, List.of("agent", "tool", "-c"), "touch again");
        assertThat(r.out().lines().toList()).as(r.toString()).containsExactly("RAN exit=126 out=");
        assertThat(box.work.resolve("again")).doesNotExist();
    }

    private Processes.Result wrap(String layer, List<String> agent, String... lines) throws Exception {
        List<String> command = new ArrayList<>(List.of(Processes.launcher().toString(), "wrap", "--layer", layer, "--"));
        command.addAll(agent);
        return Processes.run(command, box.env, String.join("\n", lines) + "\n", box.work);
    }

    private static void script(Path file, String text) throws Exception {
        Files.writeString(file, text);
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rwxr-xr-x"));
    }
}
