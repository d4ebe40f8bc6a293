package io.shellgate.it.agents;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@code shellgate setup AGENT} as a person runs it (user level, in the agent's own HOME), then the
 * real agent, started afterwards, unmodified, in its run-without-asking mode: the hook or plugin
 * that setup wrote into the agent's settings is what gates it. The runs configure no hook of their
 * own (AgentCompatibilityTest writes the same files itself), so a refusal with shellgate's reason
 * and a hook's audit record can only come from what setup wrote.
 */
@Execution(ExecutionMode.CONCURRENT)
class SetupThenAgentTest {

    @BeforeAll
    static void agents() throws Exception {
        Agents.installOrSkip();
    }

    /** The agents whose hook or plugin came with setup (the other four are set up as README shows and run in AgentCompatibilityTest). */
    static Stream<Agent> agentsSetUpByShellgate() {
        return Stream.of(Agent.COPILOT_CLI, Agent.OPENCODE, Agent.KILO, Agent.PI);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("agentsSetUpByShellgate")
    void theAgentStartedAfterSetupIsGatedByWhatSetupWrote(Agent agent) throws Exception {
        Path root = Agents.newRunFolder(agent + "-SETUP");
        Path home = Files.createDirectories(root.resolve("home"));
        Path work = Files.createDirectories(root.resolve("work"));
        Files.writeString(work.resolve("listed-by-the-agent.txt"), "x\n");

        String setup = setup(root, agent.hookName());
        assertThat(setup).as("shellgate setup %s", agent.hookName()).contains(home.toString());

        AgentResult touch = run(agent, root, "touch made-by-the-agent");
        assertThat(touch.timedOut()).as(touch.toString()).isFalse();
        assertThat(touch.toolResults()).as(touch.toString()).singleElement().asString().contains("shellgate");
        assertThat(work.resolve("made-by-the-agent")).as(touch.toString()).doesNotExist();

        AgentResult ls = run(agent, root, "ls -la");
        assertThat(ls.exitCode()).as(ls.toString()).isZero();
        assertThat(ls.toolResults()).as(ls.toString()).singleElement().asString().contains("listed-by-the-agent.txt");

        // both decisions were the hook's, named for this agent: what setup wrote was called
        List<JsonNode> audit = audit(root);
        assertThat(audit).as("the audit log").anySatisfy(d -> {
            assertThat(d.path("cmd").asText()).isEqualTo("touch made-by-the-agent");
            assertThat(d.path("entry").asText()).isEqualTo("hook");
            assertThat(d.path("detail").asText()).isEqualTo(agent.hookName());
            assertThat(d.path("run").asBoolean()).isFalse();
        });
        assertThat(audit).as("the audit log").anySatisfy(d -> {
            assertThat(d.path("cmd").asText()).isEqualTo("ls -la");
            assertThat(d.path("entry").asText()).isEqualTo("hook");
            assertThat(d.path("detail").asText()).isEqualTo(agent.hookName());
            assertThat(d.path("run").asBoolean()).isTrue();
        });
        assertThat(touch.tripwire()).isEmpty();
        assertThat(ls.tripwire()).isEmpty();
    }

    /** Runs {@code shellgate setup AGENT} with the agent's HOME and shellgate's places; its output. */
    private static String setup(Path root, String agent) throws Exception {
        Path launcher = Path.of(System.getProperty("shellgate.launcher")).toAbsolutePath().normalize();
        ProcessBuilder pb = new ProcessBuilder(launcher.toString(), "setup", agent).directory(root.resolve("work").toFile())
                .redirectErrorStream(true).redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
        pb.environment().clear();
        pb.environment().putAll(Agents.shellgateEnv(root));
        pb.environment().put("HOME", root.resolve("home").toString());
        pb.environment().put("PATH", "/usr/bin:/bin");
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(120, TimeUnit.SECONDS)).as("shellgate setup %s ended", agent).isTrue();
        assertThat(p.exitValue()).as("shellgate setup %s: %s", agent, out).isZero();
        return out;
    }

    /** The agent with shellgate's places and no hook of the test's own. */
    private static AgentResult run(Agent agent, Path root, String command) throws Exception {
        AgentRun run = AgentRun.of(agent, command);
        for (Map.Entry<String, String> e : Agents.shellgateEnv(root).entrySet()) {
            run = run.withEnv(e.getKey(), e.getValue());
        }
        return Agents.run(run, root);
    }

    private static List<JsonNode> audit(Path root) throws Exception {
        Path log = root.resolve("state/audit.jsonl");
        List<JsonNode> out = new ArrayList<>();
        if (Files.isRegularFile(log)) {
            for (String line : Files.readAllLines(log)) {
                out.add(StubModel.JSON.readTree(line));
            }
        }
        return out;
    }
}
