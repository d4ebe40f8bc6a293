package io.shellgate.it.agents;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The real agents, unmodified, in their "run without asking" modes and with nobody at a
 * terminal, gated by shellgate two ways: {@code shellgate wrap -- AGENT} and the agent's own
 * pre-tool hook ({@code shellgate-hook AGENT}, the same as {@code shellgate hook AGENT} without bash;
 * for OpenCode, Kilo and Pi, shellgate's plugin and extension, which keep one
 * {@code shellgate-hook --serve} for the session),
 * with default settings. {@code ls -la} runs and its
 * output reaches the model; {@code touch}, {@code rm -rf} of a folder and {@code git reset --hard}
 * are refused, shellgate's reason reaches the model, nothing changed, and the audit log has the
 * decision.
 */
class AgentCompatibilityTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    enum Way { WRAP, HOOK }

    @BeforeAll
    static void agents() throws Exception {
        Agents.installOrSkip();
    }

    /** Every agent both ways; {@code -Dshellgate.compat=CLAUDE_CODE,HOOK} (names of either) narrows it while developing. */
    static Stream<Arguments> agentsAndWays() {
        List<String> only = List.of(System.getProperty("shellgate.compat", "").split(",")).stream().filter(x -> !x.isBlank()).toList();
        List<Arguments> all = new ArrayList<>();
        for (Agent a : Agent.values()) {
            for (Way w : Way.values()) {
                boolean agentOk = only.stream().noneMatch(x -> isAgent(x)) || only.contains(a.name());
                boolean wayOk = only.stream().noneMatch(x -> isWay(x)) || only.contains(w.name());
                if (agentOk && wayOk) {
                    all.add(Arguments.of(a, w));
                }
            }
        }
        return all.stream();
    }

    private static boolean isAgent(String name) {
        return List.of(Agent.values()).stream().anyMatch(a -> a.name().equals(name));
    }

    private static boolean isWay(String name) {
        return List.of(Way.values()).stream().anyMatch(w -> w.name().equals(name));
    }

    /** A run folder: a git repository as the working directory, with a folder to delete and a tracked file. */
    private static Path world(Agent agent, Way way, String what) throws Exception {
        Path root = Agents.newRunFolder(agent + "-" + way + "-" + what);
        Path work = Files.createDirectories(root.resolve("work"));
        Files.writeString(work.resolve("listed-by-the-agent.txt"), "x\n");
        Files.writeString(Files.createDirectories(work.resolve("victim")).resolve("keep.txt"), "keep\n");
        Files.writeString(work.resolve("tracked.txt"), "committed\n");
        git(work, "init", "-q", ".");
        git(work, "-c", "user.email=t@example.com", "-c", "user.name=t", "add", "tracked.txt");
        git(work, "-c", "user.email=t@example.com", "-c", "user.name=t", "commit", "-qm", "init");
        // a change that git reset --hard would throw away
        Files.writeString(work.resolve("tracked.txt"), "changed, not committed\n");
        return root;
    }

    private static AgentResult run(Agent agent, Way way, Path root, String command) throws Exception {
        Path launcher = Path.of(System.getProperty("shellgate.launcher")).toAbsolutePath().normalize();
        AgentRun run = AgentRun.of(agent, command);
        for (Map.Entry<String, String> e : Agents.shellgateEnv(root).entrySet()) {
            run = run.withEnv(e.getKey(), e.getValue());
        }
        // the hook as the README sets it up: shellgate-hook where the build made it (HookClientTest
        // requires it on CI), else the launcher script's own relay
        Path client = launcher.resolveSibling("shellgate-hook");
        String hook = Files.isExecutable(client) ? Hooks.word(client.toString()) + " " + agent.hookName()
                : Hooks.word(launcher.toString()) + " hook " + agent.hookName();
        run = way == Way.WRAP ? run.withPrefix(List.of(launcher.toString(), "wrap", "--")) : run.withHook(hook);
        return Agents.run(run, root);
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("agentsAndWays")
    void aReadOnlyCommandRunsAndItsOutputReachesTheModel(Agent agent, Way way) throws Exception {
        Path root = world(agent, way, "ls");
        AgentResult r = run(agent, way, root, "ls -la");
        assertThat(r.exitCode()).as(r.toString()).isZero();
        assertThat(r.toolResults()).as(r.toString()).singleElement().asString().contains("listed-by-the-agent.txt");
        assertThat(r.tripwire()).isEmpty();
        assertThat(audit(root)).as("the audit log").anySatisfy(d -> {
            assertThat(d.path("cmd").asText()).isEqualTo("ls -la");
            assertThat(d.path("run").asBoolean()).isTrue();
        });
        // nothing the agent starts on its own (a start-up probe, an environment snapshot) is refused
        assertThat(audit(root)).as("refusals in the audit log of a run that only lists")
                .noneSatisfy(d -> assertThat(d.path("run").isBoolean() && !d.path("run").asBoolean()).isTrue());
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("agentsAndWays")
    void stateChangingAndDestructiveCommandsAreRefusedWithShellgatesReason(Agent agent, Way way) throws Exception {
        List<String> commands = new ArrayList<>(List.of("touch made-by-the-agent", "rm -rf victim", "git reset --hard"));
        if (agent == Agent.CODEX) {
            // Codex refuses rm -rf itself before any shell starts ("rm -f style commands are not
            // permitted") unless a hook answered first: shellgate is shown to stop the same deletion
            // spelled without -f
            commands.add("rm -r victim");
        }
        // each command in a session and a world of its own; the sessions run side by side
        record Session(Path root, Future<AgentResult> result) {}
        Map<String, Session> sessions = new LinkedHashMap<>();
        ExecutorService side = Executors.newFixedThreadPool(commands.size());
        try {
            for (String command : commands) {
                Path root = world(agent, way, command.split(" ")[0]);
                sessions.put(command, new Session(root, side.submit(() -> run(agent, way, root, command))));
            }
            for (Session session : sessions.values()) {
                session.result().get();
            }
        } finally {
            side.shutdownNow();
        }
        for (String command : commands) {
            Session session = sessions.get(command);
            Path root = session.root();
            Path work = root.resolve("work");
            AgentResult r = session.result().get();
            assertThat(r.timedOut()).as(r.toString()).isFalse();
            assertThat(work.resolve("victim/keep.txt")).as(command + ": " + r).exists();
            if (agent == Agent.CODEX && command.equals("rm -rf victim") && way == Way.WRAP) {
                // its hook runs before that check; without one, Codex's own refusal comes first
                assertThat(r.toolResults()).as(command + ": " + r).singleElement().asString().contains("rm -f style commands are not permitted");
                continue;
            }
            assertThat(r.toolResults()).as(command + ": " + r).singleElement().asString().contains("shellgate");
            assertThat(work.resolve("made-by-the-agent")).as(command + ": " + r).doesNotExist();
            assertThat(work.resolve("victim/keep.txt")).as(command + ": " + r).exists();
            assertThat(work.resolve("tracked.txt")).as(command + ": " + r).hasContent("changed, not committed");
            assertThat(audit(root)).as(command + ": the audit log").anySatisfy(d -> {
                assertThat(d.path("cmd").asText()).isEqualTo(command);
                assertThat(d.path("run").asBoolean()).isFalse();
            });
            assertThat(r.tripwire()).isEmpty();
        }
    }

    private static List<JsonNode> audit(Path root) throws Exception {
        Path log = root.resolve("state/audit.jsonl");
        if (!Files.isRegularFile(log)) {
            return List.of();
        }
        List<JsonNode> out = new ArrayList<>();
        for (String line : Files.readAllLines(log)) {
            out.add(JSON.readTree(line));
        }
        return out;
    }

    private static void git(Path dir, String... args) throws Exception {
        List<String> command = new ArrayList<>(List.of("git"));
        command.addAll(List.of(args));
        Process p = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes());
        assertThat(p.waitFor()).as("git %s: %s", List.of(args), out).isZero();
    }

}
