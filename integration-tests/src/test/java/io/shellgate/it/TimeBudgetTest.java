package io.shellgate.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * No door fails open by being slow: with the judge server stopped (SIGSTOP: it still accepts
 * connections and never answers) and an LLM reviewer that accepts and never answers, every door
 * refuses well before the agents' own hook time-outs (60 s for Gemini CLI and Qwen Code, after
 * which they run the tool). Bounds here are generous (55 s, the agent's limit less a margin): the
 * point is that each door ends in a refusal, not how fast.
 */
class TimeBudgetTest extends SandboxTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    /** The agents' shortest hook time-out (60 s) less a margin. */
    private static final Duration BOUND = Duration.ofSeconds(55);

    private SilentLlm llm;

    @BeforeEach
    void silentLlm() throws Exception {
        llm = new SilentLlm();
        box.env.putAll(Map.of("SHELLGATE_LLM_PROVIDER", "openai", "SHELLGATE_LLM_BASE_URL", llm.url(), "SHELLGATE_LLM_MODEL",
                "x", "SHELLGATE_LLM_API_KEY", "k", "SHELLGATE_LLM_MAY_APPROVE", "true", "SHELLGATE_LLM_TIMEOUT_SECONDS", "20"));
    }

    @AfterEach
    void closeLlm() throws IOException {
        llm.close();
    }

    /** A door's outcome and how long it took. */
    private record Timed(Processes.Result result, Duration took) {}

    private static Timed timed(Callable<Processes.Result> door) throws Exception {
        long start = System.nanoTime();
        Processes.Result r = door.call();
        return new Timed(r, Duration.ofNanos(System.nanoTime() - start));
    }

    private Timed hookClient(Map<String, String> env, String agent, String command) throws Exception {
        byte[] in = Sandbox.bytes(HookAdaptersTest.input(agent, command, box.work));
        return timed(() -> Processes.run(List.of(Processes.hookClient().toString(), agent), env, in, box.work));
    }

    /** The decision a hook answer gives the agent: Gemini's decision, the others' permissionDecision. */
    private static String decision(String agent, Processes.Result r) throws IOException {
        if (r.out().isBlank()) {
            return "";
        }
        JsonNode answer = JSON.readTree(r.out());
        return agent.equals("gemini-cli") ? answer.path("decision").asText()
                : answer.path("hookSpecificOutput").path("permissionDecision").asText();
    }

    private static void signal(ProcessHandle server, String signal) throws Exception {
        assertThat(new ProcessBuilder("kill", "-" + signal, Long.toString(server.pid())).start().waitFor()).isZero();
    }

    @Test
    void aStoppedServerAndASilentLlmEndInARefusalAtEveryDoor() throws Exception {
        // woken after minutes, the server must not take itself for idle before it reads what waits for it
        box.env.put("SHELLGATE_SERVER_IDLE_SECONDS", "900");
        ProcessHandle server = box.startServer().toHandle();
        Map<String, String> env = new HashMap<>(box.env);
        List<String> took = new ArrayList<>();
        signal(server, "STOP");
        // every door waits out its own deadline: they wait side by side, each in a thread of its own
        ExecutorService doors = Executors.newFixedThreadPool(8);
        try {
            Map<String, Future<Timed>> hooks = new LinkedHashMap<>();
            for (String agent : List.of("gemini-cli", "qwen-code", "codex", "claude-code")) {
                hooks.put(agent, doors.submit(() -> hookClient(env, agent, "touch made-by-" + agent)));
            }
            byte[] in = Sandbox.bytes(HookAdaptersTest.input("gemini-cli", "touch made-by-script", box.work));
            Future<Timed> scriptDoor = doors.submit(() -> timed(() -> box.shellgate(env, in, "hook", "gemini-cli")));
            Future<Timed> cDoor = doors.submit(() -> timed(() -> box.shellgate(env, null, "-c", "touch made-by-c")));
            Future<Timed> agentDoor = doors.submit(
                    () -> timed(() -> AgentJvm.of(17, "server").run(box, "", "pb", "touch", "made-by-javaagent")));

            for (Map.Entry<String, Future<Timed>> h : hooks.entrySet()) {
                String agent = h.getKey();
                Timed t = h.getValue().get(2, TimeUnit.MINUTES);
                // the agents that ask their own user get the ask handed back; the others a refusal
                assertThat(decision(agent, t.result())).as("shellgate-hook %s: %s", agent, t.result())
                        .isEqualTo(agent.equals("qwen-code") || agent.equals("claude-code") ? "ask" : "deny");
                assertThat(t.took()).as("shellgate-hook " + agent).isLessThan(BOUND);
                took.add("shellgate-hook " + agent + ": " + t.took().toMillis() + " ms");
            }
            Timed script = scriptDoor.get(2, TimeUnit.MINUTES);
            assertThat(decision("gemini-cli", script.result())).as(script.result().toString()).isEqualTo("deny");
            assertThat(script.took()).as("shellgate hook").isLessThan(BOUND);
            took.add("shellgate hook gemini-cli: " + script.took().toMillis() + " ms");

            Timed c = cDoor.get(2, TimeUnit.MINUTES);
            assertThat(c.result().code()).as(c.result().toString()).isEqualTo(126);
            assertThat(c.result().err()).contains("refused");
            assertThat(c.took()).as("shellgate -c").isLessThan(BOUND);
            took.add("shellgate -c: " + c.took().toMillis() + " ms");

            Timed agent = agentDoor.get(2, TimeUnit.MINUTES);
            assertThat(agent.result().out()).as(agent.result().toString()).contains("REFUSED").contains("did not answer");
            assertThat(agent.took()).as("javaagent").isLessThan(BOUND);
            took.add("javaagent: " + agent.took().toMillis() + " ms");
        } finally {
            doors.shutdownNow();
            signal(server, "CONT");
        }
        System.out.println("stopped server, silent LLM: " + took);
        try (var files = Files.list(box.work)) {
            assertThat(files.map(p -> p.getFileName().toString())).noneMatch(n -> n.startsWith("made-by-"));
        }
        // the server, woken, answers clients that stopped waiting long ago: its records say that
        // whether those commands ran is not known, not that they were refused
        Path log = box.home.resolve(".local/state/shellgate/audit.jsonl");
        assertThat(Await.until(() -> records(log).stream().anyMatch(r -> r.path("run").isNull()
                && r.path("cmd").asText().startsWith("touch made-by-") && r.path("message").asText().contains("not known"))))
                .as("a record with \"run\": null in %s", log).isTrue();
    }

    @Test
    void aSilentLlmBehindALiveServerEndsInARefusalAndTheClientsWaitForIt() throws Exception {
        box.startServer();
        Map<String, String> env = new HashMap<>(box.env);
        // no JVM to fall back on: the answers are the server's, after its LLM step ran out
        env.put("SHELLGATE_JAVA_HOME", box.root.resolve("no-jdk-here").toString());
        Timed hook = hookClient(env, "gemini-cli", "touch made-by-hook");
        assertThat(decision("gemini-cli", hook.result())).as(hook.result().toString()).isEqualTo("deny");
        assertThat(hook.took()).isLessThan(BOUND);
        Timed c = timed(() -> box.shellgate(env, null, "-c", "touch made-by-c"));
        assertThat(c.result().code()).as(c.result().toString()).isEqualTo(126);
        assertThat(c.result().err()).contains("refused");
        assertThat(c.took()).isLessThan(BOUND);
        System.out.println("silent LLM behind a live server: hook " + hook.took().toMillis() + " ms, -c " + c.took().toMillis()
                + " ms");
        assertThat(llm.accepted()).isGreaterThanOrEqualTo(2);
        // the clients took the answers: the records say they were refused
        List<JsonNode> records = records(box.home.resolve(".local/state/shellgate/audit.jsonl"));
        assertThat(records).filteredOn(r -> r.path("cmd").asText().startsWith("touch made-by-")).hasSize(2)
                .allSatisfy(r -> assertThat(r.path("run").isBoolean() && !r.path("run").asBoolean()).as(r.toString()).isTrue());
        assertThat(box.work.resolve("made-by-hook")).doesNotExist();
        assertThat(box.work.resolve("made-by-c")).doesNotExist();
    }

    private static List<JsonNode> records(Path log) {
        List<JsonNode> out = new ArrayList<>();
        try {
            for (String line : Files.readAllLines(log)) {
                out.add(JSON.readTree(line));
            }
        } catch (IOException e) {
            // not written yet
        }
        return out;
    }

    /** Waits up to a minute for a condition. */
    private static final class Await {
        static boolean until(java.util.function.BooleanSupplier condition) throws InterruptedException {
            for (int i = 0; i < 1200 && !condition.getAsBoolean(); i++) {
                Thread.sleep(50);
            }
            return condition.getAsBoolean();
        }
    }

    /** An LLM endpoint on loopback that accepts every connection and never answers. */
    private static final class SilentLlm implements AutoCloseable {
        private final ServerSocket socket = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        private final List<Socket> held = new CopyOnWriteArrayList<>();

        SilentLlm() throws IOException {
            Processes.thread(() -> {
                while (!socket.isClosed()) {
                    try {
                        held.add(socket.accept());
                    } catch (IOException e) {
                        // closed
                    }
                }
            });
        }

        String url() {
            return "http://127.0.0.1:" + socket.getLocalPort() + "/v1";
        }

        int accepted() {
            return held.size();
        }

        @Override
        public void close() throws IOException {
            socket.close();
            for (Socket s : held) {
                s.close();
            }
        }
    }
}
