package io.shellgate.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The distribution archive, unpacked somewhere else as a user would: its launcher, its jar and the
 * javaagent's jar find each other with nothing on {@code PATH} and no options naming them.
 */
@ExtendWith(AgentTransformationErrors.class)
class DistributionTest extends SandboxTest {

    private Path dist;

    @BeforeEach
    void unpack() throws Exception {
        String archive = System.getProperty("shellgate.dist");
        assertThat(archive).as("run through Maven: the system property shellgate.dist names the archive").isNotNull();
        Path into = Files.createDirectories(dir.resolve("opt"));
        Processes.Result r = Processes.run(List.of("tar", "-xzf", archive, "-C", into.toString()), null, (String) null, null);
        assertThat(r.code()).as(r.toString()).isZero();
        try (var top = Files.list(into)) {
            dist = top.findFirst().orElseThrow();
        }
        assertThat(dist.getFileName().toString()).startsWith("shellgate-");
        assertThat(dist.resolve("shellgate")).isExecutable();
        assertThat(dist.resolve("shellgate.jar")).isRegularFile();
        assertThat(dist.resolve("shellgate-agent.jar")).isRegularFile();
    }

    @Test
    void theHookClientOfTheDistributionHandsACallWithoutAServerToItsLauncher() throws Exception {
        Path client = dist.resolve("shellgate-hook");
        if (!Files.exists(client)) {
            // the same reason (skip, or fail on CI) as where the build made none
            Processes.hookClient();
        }
        assertThat(client).isExecutable();
        Map<String, String> env = new HashMap<>(box.env);
        env.put("SHELLGATE_NO_SERVER", "1");
        String input = "{\"hook_event_name\":\"PreToolUse\",\"tool_name\":\"Bash\",\"tool_input\":{\"command\":\"rm -rf ~\"}}";
        Processes.Result r = Processes.run(List.of(client.toString(), "claude-code"), env, input, box.work);
        assertThat(r.code()).as(r.toString()).isZero();
        assertThat(r.out()).contains("\"permissionDecision\":\"deny\"").contains("rm-recursive-critical");
        // doctor names it as the command for the agents' settings
        Processes.Result doctor = Processes.run(List.of(dist.resolve("shellgate").toString(), "doctor"), box.env, (String) null, box.work);
        assertThat(doctor.out()).as(doctor.toString()).contains("\nhooks:    " + client + " AGENT (")
                .contains("\nnatives:  tree-sitter runtime and bash grammar loaded from the jars, extracted to "
                        + box.env.get("SHELLGATE_CACHE_DIR") + "/native\n");
    }

    @Test
    void theJavaagentOfTheDistributionFindsItsLauncherOnJava17() throws Exception {
        Path marker = box.root.resolve("dist-marker");
        // no launcher= option and no shellgate on PATH: the agent starts the launcher beside its jar
        Processes.Result r = Processes.run(List.of(LauncherScriptTest.jdk("17").resolve("bin/java").toString(), "-Xshare:auto",
                "-javaagent:" + dist.resolve("shellgate-agent.jar"), "-cp", AgentJvm.targetClasses().toString(), "AgentTarget",
                "pb", "touch", marker.toString()), box.env, (String) null, box.work);
        AgentTransformationErrors.check(r.err());
        assertThat(r.out()).as(r.toString()).startsWith("REFUSED").contains("rule=not-read-only tier=ask");
        assertThat(marker).doesNotExist();
        Processes.Result echo = Processes.run(List.of(LauncherScriptTest.jdk("17").resolve("bin/java").toString(), "-Xshare:auto",
                "-javaagent:" + dist.resolve("shellgate-agent.jar"), "-cp", AgentJvm.targetClasses().toString(), "AgentTarget",
                "pb", "echo", "hello"), box.env, (String) null, box.work);
        assertThat(echo.out()).as(echo.toString()).isEqualTo("RAN exit=0 out=hello\n");
    }

    @Test
    void wrapWithJavaagentAsWrittenUsesTheAgentJarBesideTheLauncher() throws Exception {
        Path marker = box.root.resolve("wrap-marker");
        Map<String, String> env = new HashMap<>(box.env);
        env.remove("SHELLGATE_AGENT_JAR");
        Processes.Result r = Processes.run(List.of(dist.resolve("shellgate").toString(), "wrap", "--javaagent", "--",
                LauncherScriptTest.jdk("17").resolve("bin/java").toString(), "-cp", AgentJvm.targetClasses().toString(),
                "AgentTarget", "pb", "touch", marker.toString()), env, (String) null, box.work);
        AgentTransformationErrors.check(r.err());
        assertThat(r.out()).as(r.toString()).startsWith("REFUSED").contains("rule=not-read-only tier=ask");
        assertThat(r.err()).contains("Picked up JAVA_TOOL_OPTIONS: -javaagent:" + dist.resolve("shellgate-agent.jar") + "=launcher="
                + dist.resolve("shellgate"));
        assertThat(marker).doesNotExist();
    }
}
