package io.shellgate.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.shellgate.it.Sandbox.Mode;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The review pipeline from the outside: a command that needs review waits while a person answers
 * with {@code shellgate approvals} from another process (or on the terminal), and every decision
 * lands in the audit log that {@code shellgate log} reads.
 */
class ReviewTest extends SandboxTest {


    private static final Pattern ID = Pattern.compile("(?m)^([0-9a-f-]{36})  \\(shell-c pid \\d+");

    private Map<String, String> env(Mode mode, int timeout) throws Exception {
        box.env.put("SHELLGATE_REVIEW_TIMEOUT_SECONDS", Integer.toString(timeout));
        return box.client(mode);
    }

    private CompletableFuture<Processes.Result> background(Map<String, String> env, String command) {
        return CompletableFuture.supplyAsync(() -> {
            try {
                return box.shellgate(env, null, "-c", command);
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        }, Processes::thread);
    }

    /** Waits until {@code shellgate approvals} lists exactly one ask, and returns its id. */
    private String awaitWaiting(String command, CompletableFuture<Processes.Result> client) throws Exception {
        Processes.Result list = null;
        for (int i = 0; i < 300; i++) {
            if (client.isDone()) {
                String files;
                try (var walk = Files.walk(dir)) {
                    files = String.join("\n", walk.map(Path::toString).filter(f -> f.contains("state")).toList());
                }
                throw new AssertionError("the client did not wait for an answer: " + client.get() + "\nlast listing: " + list
                        + "\nstate files:\n" + files);
            }
            list = box.shellgate("approvals");
            Matcher m = ID.matcher(list.out());
            if (m.find()) {
                assertThat(list.out()).contains("$ " + command).contains("not-read-only: touch is not on the read-only list");
                return m.group(1);
            }
            Thread.sleep(100);
        }
        throw new AssertionError("no ask appeared in shellgate approvals");
    }

    @ParameterizedTest
    @EnumSource(Mode.class)
    void aPersonApprovesOnceFromAnotherProcess(Mode mode) throws Exception {
        Map<String, String> env = env(mode, 60);
        CompletableFuture<Processes.Result> client = background(env, "touch approved-once");
        String id = awaitWaiting("touch approved-once", client);
        assertThat(box.work.resolve("approved-once")).doesNotExist();
        Processes.Result answer = box.shellgate("approvals", id.substring(0, 8), "once");
        assertThat(answer.code()).as(answer.toString()).isZero();
        Processes.Result r = client.get(60, TimeUnit.SECONDS);
        assertThat(r.code()).as(r.toString()).isZero();
        assertThat(box.work.resolve("approved-once")).exists();
        // the answer was for that request only: it cannot be given again, and the next ask waits anew
        Processes.Result replay = box.shellgate("approvals", id, "once");
        assertThat(replay.code()).isEqualTo(4);
        assertThat(replay.err()).contains("no pending ask has the id");
        Processes.Result log = box.shellgate("log", "--json");
        assertThat(log.out()).contains("\"cmd\":\"touch approved-once\"").contains("\"step\":\"person\"")
                .contains("\"run\":true");
    }

    @ParameterizedTest
    @EnumSource(Mode.class)
    void aRefusalStopsTheCommand(Mode mode) throws Exception {
        Map<String, String> env = env(mode, 60);
        CompletableFuture<Processes.Result> client = background(env, "touch refused");
        String id = awaitWaiting("touch refused", client);
        assertThat(box.shellgate("approvals", id, "refuse").code()).isZero();
        Processes.Result r = client.get(60, TimeUnit.SECONDS);
        assertThat(r.code()).isEqualTo(126);
        assertThat(r.err()).isEqualTo("shellgate: refused (not-read-only): refused by a person through shellgate approvals\n");
        assertThat(box.work.resolve("refused")).doesNotExist();
    }

    @Test
    void anAskNobodyAnswersIsRefusedWhenTheTimeRunsOut() throws Exception {
        Map<String, String> env = env(Mode.SERVER, 1);
        Processes.Result r = box.shellgate(env, null, "-c", "touch late");
        assertThat(r.code()).isEqualTo(126);
        assertThat(r.err()).contains("nobody answered within 1 s");
        assertThat(box.work.resolve("late")).doesNotExist();
        assertThat(box.shellgate("approvals").out()).isEqualTo("nothing is waiting for review\n");
    }

    @Test
    void aSessionAnswerStopsAskingForThatCommandInThatSession() throws Exception {
        Map<String, String> env = env(Mode.SERVER, 60);
        env.put("SHELLGATE_SESSION", "wrap-1");
        CompletableFuture<Processes.Result> client = background(env, "touch again");
        String id = awaitWaiting("touch again", client);
        assertThat(box.shellgate("approvals", id, "session").code()).isZero();
        assertThat(client.get(60, TimeUnit.SECONDS).code()).isZero();
        Files.delete(box.work.resolve("again"));
        // the same command in the same session runs without asking
        Processes.Result second = box.shellgate(env, null, "-c", "touch again");
        assertThat(second.code()).as(second.toString()).isZero();
        assertThat(box.work.resolve("again")).exists();
        List<String> log = box.shellgate("log", "--json").out().lines().toList();
        assertThat(log.getLast()).contains("\"step\":\"memory\"").contains("\"session\":\"wrap-1\"");
    }

    @Test
    void aProjectAnswerIsRememberedInTheUserPolicy() throws Exception {
        Map<String, String> env = env(Mode.SERVER, 60);
        CompletableFuture<Processes.Result> client = background(env, "touch kept");
        String id = awaitWaiting("touch kept", client);
        assertThat(box.shellgate("approvals", id, "project").code()).isZero();
        assertThat(client.get(60, TimeUnit.SECONDS).code()).isZero();
        Path policy = box.home.resolve(".config/shellgate/policy.toml");
        assertThat(Files.readString(policy)).contains("[[approved]]").contains("command = \"touch kept\"")
                .contains("project = \"" + box.work + "\"");
        assertThat(box.shellgate("policy", "validate").code()).isZero();
        Files.delete(box.work.resolve("kept"));
        Processes.Result again = box.shellgate(env, null, "-c", "touch kept");
        assertThat(again.code()).as(again.toString()).isZero();
        assertThat(box.shellgate("log", "--json").out().lines().toList().getLast()).contains("\"step\":\"memory\"");
    }

    @Test
    void thePersonAtTheTerminalCanAnswer() throws Exception {
        Map<String, String> env = env(Mode.SERVER, 60);
        // script(1) gives the client a terminal of its own, as a person's terminal would be
        Process p = Processes.start(List.of("script", "-q", "-e", "-c",
                Processes.launcher() + " -c 'touch from-tty'", "/dev/null"), env, box.work);
        StringBuilder seen = new StringBuilder();
        byte[] buf = new byte[4096];
        while (!seen.toString().contains("[r]efuse (default): ")) {
            int n = p.getInputStream().read(buf);
            assertThat(n).as("terminal output so far: " + seen).isPositive();
            seen.append(new String(buf, 0, n, StandardCharsets.UTF_8));
        }
        assertThat(seen.toString()).contains("touch from-tty").contains("touch is not on the read-only list");
        OutputStream in = p.getOutputStream();
        in.write("o\n".getBytes(StandardCharsets.UTF_8));
        in.flush();
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).isZero();
        assertThat(box.work.resolve("from-tty")).exists();
        assertThat(box.shellgate("log").out()).contains("approved once by a person at the terminal");
    }

    @Test
    void logFiltersAndRejectsBadArguments() throws Exception {
        Map<String, String> env = env(Mode.SERVER, 0);
        box.shellgate(env, null, "-c", "ls");
        box.shellgate(env, null, "-c", "rm -rf ~");
        box.shellgate(env, null, "-c", "touch x");
        List<String> deny = box.shellgate("log", "--tier", "deny", "--json").out().lines().toList();
        assertThat(deny).hasSize(1);
        assertThat(deny.getFirst()).contains("\"cmd\":\"rm -rf ~\"").contains("\"run\":false").contains("\"entry\":\"shell-c\"");
        assertThat(box.shellgate("log", "--refused", "--json").out().lines()).hasSize(2);
        assertThat(box.shellgate("log", "--since", "1h", "--json").out().lines()).hasSize(3);
        assertThat(box.shellgate("log", "--since", "2999-01-01T00:00:00Z", "--json").out()).isEmpty();
        Processes.Result bad = box.shellgate("log", "--since", "yesterday");
        assertThat(bad.code()).isEqualTo(2);
        assertThat(bad.err()).contains("give an age such as 30m");
        assertThat(box.shellgate("approvals", "abcd").code()).isEqualTo(2);
    }

    @Test
    void theHookLetsMemoryAnswerAndLeavesPeopleToTheAgent() throws Exception {
        Path policy = Files.createDirectories(box.home.resolve(".config/shellgate")).resolve("policy.toml");
        Files.writeString(policy, """
                version = 1
                [[approved]]
                id = "make-test"
                prefix = ["make", "test"]
                max-args = 0
                """);
        String input = "{\"tool_name\":\"Bash\",\"session_id\":\"s9\",\"cwd\":\"%s\",\"tool_input\":{\"command\":\"%s\"}}";
        Processes.Result remembered = box.shellgate(Sandbox.bytes(input.formatted(box.work, "make test")), "hook", "claude-code");
        assertThat(remembered.out()).contains("\"permissionDecision\":\"allow\"").contains("approved (memory)");
        Processes.Result ask = box.shellgate(Sandbox.bytes(input.formatted(box.work, "make install")), "hook", "claude-code");
        assertThat(ask.out()).contains("\"permissionDecision\":\"ask\"");
        assertThat(box.shellgate("log", "--json").out()).contains("\"entry\":\"hook\"").contains("\"session\":\"claude-code-s9\"");
    }
}
