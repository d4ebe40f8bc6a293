package io.shellgate.it.agents;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The real agents without shellgate: the harness drives each through its shell tool, the
 * command runs and its output reaches the model. What each one starts (its shell envelope) and what
 * its pre-tool hook is given are kept as golden files, which docs/agents.md explains.
 */
@Execution(ExecutionMode.CONCURRENT)
class AgentBaselineTest {

    private static final String MARKER = "file-the-agent-lists.txt";

    @BeforeAll
    static void agents() throws Exception {
        Agents.installOrSkip();
    }

    /** Every agent; {@code -Dshellgate.compat=CLAUDE_CODE,PI} narrows it while developing, as in AgentCompatibilityTest. */
    static java.util.stream.Stream<Agent> selectedAgents() {
        List<String> only = List.of(System.getProperty("shellgate.compat", "").split(",")).stream()
                .filter(x -> java.util.Arrays.stream(Agent.values()).anyMatch(a -> a.name().equals(x))).toList();
        return java.util.Arrays.stream(Agent.values()).filter(a -> only.isEmpty() || only.contains(a.name()));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("selectedAgents")
    void runsLsThroughItsShellToolAndTheOutputReachesTheModel(Agent agent) throws Exception {
        Path root = Agents.newRunFolder(agent + "-ls");
        Files.writeString(Files.createDirectories(root.resolve("work")).resolve(MARKER), "x\n");
        AgentResult r = Agents.run(AgentRun.of(agent, "ls -la").withTrace(), root);

        assertThat(r.exitCode()).as(r.toString()).isZero();
        assertThat(r.toolResults()).as(r.toString()).singleElement().asString().contains(MARKER).contains("total ");
        assertThat(r.stdout()).contains(StubModel.FINAL_TEXT);
        assertThat(r.tripwire()).as("connections to other hosts").isEmpty();
        assertThat(r.connections()).as("every IP connection of the whole process tree").isNotEmpty()
                .allSatisfy(target -> assertThat(target).startsWith("127.0.0.1:"));
        // shells, and Codex's process-setup helper, which re-executes itself with the shell's argv
        List<Exec> started = r.execs().stream().filter(e -> e.isShell() || e.path().equals("/proc/self/exe"))
                .filter(e -> !agentSpecificProbe(e)).toList();
        assertThat(r.shellsRunning("ls -la")).as("a shell ran the command").isNotEmpty();
        // known forms, not one sequence: Codex wraps the command in its shell snapshot only once the
        // snapshot it builds at start is ready, which races with the first command
        Normalizer normalizer = new Normalizer(root, Agents.install());
        Golden.checkKnownForms(agent.name().toLowerCase() + "-shells.txt", started.stream().map(normalizer::render).toList());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("selectedAgents")
    void itsPreToolHookGetsTheCommandAsJsonAndAnEmptyExitZeroAllows(Agent agent) throws Exception {
        Path root = Agents.newRunFolder(agent + "-hook");
        Files.writeString(Files.createDirectories(root.resolve("work")).resolve(MARKER), "x\n");
        Path hooks = root.resolve("hooks");
        AgentResult r = Agents.run(AgentRun.of(agent, "ls -la").withHook(Hooks.recorder(hooks)), root);

        assertThat(r.exitCode()).as(r.toString()).isZero();
        List<JsonNode> inputs = Hooks.recorded(hooks);
        assertThat(inputs).as(r.toString()).singleElement()
                .satisfies(input -> assertThat(agent.setup.hookCommand(input)).isEqualTo("ls -la"));
        assertThat(r.toolResults()).as(r.toString()).singleElement().asString().contains(MARKER);
        assertThat(r.tripwire()).isEmpty();
        Golden.check(agent.name().toLowerCase() + "-hook-input.json",
                new Normalizer(root, Agents.install()).apply(inputs.getFirst().toPrettyString()) + "\n");
    }

    /**
     * Shells an agent starts whatever the model asks, whose number or text depends on the machine:
     * Qwen Code walks up its process tree with {@code ps} and looks for {@code rg} on PATH.
     */
    private static boolean agentSpecificProbe(Exec exec) {
        return exec.argv().stream().anyMatch(a -> a.startsWith("ps -o ppid=,command= -p ") || a.equals("command -v rg"));
    }
}
