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
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The review pipeline from the outside: with nobody to ask, an ask is refused at once and says how
 * to approve; while a person watches with {@code shellgate approvals --watch} in a terminal of
 * their own, asks wait for their key; and every decision lands in the audit log that
 * {@code shellgate log} reads.
 */
class ReviewTest extends SandboxTest {

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

    @ParameterizedTest
    @EnumSource(Mode.class)
    void anAskWithNobodyToAskIsRefusedAtOnceWithHowToApproveIt(Mode mode) throws Exception {
        // ten minutes to wait for a person, and nobody who could answer: no terminal, no watcher
        Map<String, String> env = env(mode, 600);
        Processes.Result r = box.shellgate(env, null, "-c", "touch nobody");
        assertThat(r.code()).isEqualTo(126);
        assertThat(r.err()).startsWith("shellgate: refused (not-read-only): needs review (touch is not on the read-only list),"
                + " and nobody can answer: there is no terminal to ask on, and nobody runs shellgate approvals --watch.")
                .contains("start shellgate approvals --watch in a terminal of your own")
                .contains("there a person can approve \"touch nobody\" once (y)").doesNotContain("policy.toml");
        assertThat(box.work.resolve("nobody")).doesNotExist();
        assertThat(box.shellgate("log", "--json").out()).contains("\"cmd\":\"touch nobody\"").contains("\"run\":false");
    }

    @ParameterizedTest
    @EnumSource(Mode.class)
    void aPersonWatchingSeesTheAskAndApprovesItOnce(Mode mode) throws Exception {
        Map<String, String> env = env(mode, 120);
        try (ApprovalsWatch watch = ApprovalsWatch.start(box)) {
            CompletableFuture<Processes.Result> client = background(env, "touch approved-once");
            String shown = watch.awaitQuestion();
            assertThat(shown).contains("shell-c, pid ").contains("in " + box.work).contains("    touch approved-once")
                    .contains("- touch is not on the read-only list (not-read-only)");
            assertThat(box.work.resolve("approved-once")).doesNotExist();
            assertThat(watch.answer("y")).contains("once");
            Processes.Result r = client.get(60, TimeUnit.SECONDS);
            assertThat(r.code()).as(r.toString()).isZero();
            assertThat(box.work.resolve("approved-once")).exists();
        }
        // the answer was for that request only: with nobody watching, the same line is refused again
        assertThat(box.shellgate(env, null, "-c", "touch approved-once").err()).contains("nobody can answer");
        Processes.Result log = box.shellgate("log", "--json");
        assertThat(log.out()).contains("\"cmd\":\"touch approved-once\"").contains("\"step\":\"person\"")
                .contains("\"run\":true");
    }

    @ParameterizedTest
    @EnumSource(Mode.class)
    void aRefusalStopsTheCommand(Mode mode) throws Exception {
        Map<String, String> env = env(mode, 120);
        try (ApprovalsWatch watch = ApprovalsWatch.start(box)) {
            CompletableFuture<Processes.Result> client = background(env, "touch refused");
            watch.awaitQuestion();
            assertThat(watch.answer("n")).contains("refused");
            Processes.Result r = client.get(60, TimeUnit.SECONDS);
            assertThat(r.code()).isEqualTo(126);
            assertThat(r.err()).startsWith("shellgate: refused (not-read-only): refused by a person through shellgate approvals");
            assertThat(box.work.resolve("refused")).doesNotExist();
        }
    }

    @ParameterizedTest
    @EnumSource(Mode.class)
    void textWrittenToTheWatchersTerminalNeverApproves(Mode mode) throws Exception {
        Map<String, String> env = env(mode, 120);
        try (ApprovalsWatch watch = ApprovalsWatch.start(box)) {
            CompletableFuture<Processes.Result> client = background(env, "touch typed");
            watch.awaitQuestion();
            assertThat(watch.typeAtOnce("yes\r")).contains("refused: 4 keys arrived at once");
            assertThat(client.get(60, TimeUnit.SECONDS).code()).isEqualTo(126);
            // a key that is not an answer refuses, and says why
            CompletableFuture<Processes.Result> second = background(env, "touch other");
            watch.awaitQuestion();
            assertThat(watch.answer("o")).contains("refused: 'o' is not an answer (y, s, p or n)");
            assertThat(second.get(60, TimeUnit.SECONDS).code()).isEqualTo(126);
        }
        assertThat(box.work.resolve("typed")).doesNotExist();
        assertThat(box.work.resolve("other")).doesNotExist();
    }

    @Test
    void anAskTheWatcherLeavesOpenIsRefusedWhenTheTimeRunsOutOrTheWatcherStops() throws Exception {
        Map<String, String> env = env(Mode.SERVER, 1);
        try (ApprovalsWatch watch = ApprovalsWatch.start(box)) {
            Processes.Result r = box.shellgate(env, null, "-c", "touch late");
            assertThat(r.code()).isEqualTo(126);
            assertThat(r.err()).contains("nobody answered within 1 s");
            assertThat(watch.terminal().await("no longer waiting")).isNotEmpty();
            assertThat(watch.terminal().await("to be asked again.")).contains("Nobody answered in time here");
            env.put("SHELLGATE_REVIEW_TIMEOUT_SECONDS", "600");
            box.env.put("SHELLGATE_REVIEW_TIMEOUT_SECONDS", "600");
            // the person left the question unanswered: the next ask does not wait for the empty chair
            Processes.Result away = box.shellgate(env, null, "-c", "touch away");
            assertThat(away.code()).isEqualTo(126);
            assertThat(away.err()).contains("shellgate approvals --watch is open, but its question about touch late went"
                    + " unanswered; a key pressed there makes it ask again");
            // a key at the watcher: asks wait for it again
            watch.answer("\r");
            assertThat(watch.terminal().await("nobody answered here")).contains("Watching again; 1 command was refused while");
            CompletableFuture<Processes.Result> client = background(box.client(Mode.NO_SERVER), "touch left");
            watch.awaitQuestion();
            // the person closes the watcher's terminal
            watch.close();
            Processes.Result left = client.get(60, TimeUnit.SECONDS);
            assertThat(left.err()).contains("shellgate approvals --watch stopped");
        }
        assertThat(box.work.resolve("late")).doesNotExist();
        assertThat(box.work.resolve("away")).doesNotExist();
        assertThat(box.work.resolve("left")).doesNotExist();
    }

    @Test
    void aSessionAnswerStopsAskingForThatCommandInThatSession() throws Exception {
        Map<String, String> env = env(Mode.SERVER, 120);
        env.put("SHELLGATE_SESSION", "wrap-1");
        try (ApprovalsWatch watch = ApprovalsWatch.start(box)) {
            CompletableFuture<Processes.Result> client = background(env, "touch again");
            assertThat(watch.awaitQuestion()).contains("session wrap-1");
            assertThat(watch.answer("s")).contains("always in this session");
            assertThat(client.get(60, TimeUnit.SECONDS).code()).isZero();
        }
        Files.delete(box.work.resolve("again"));
        // the same command in the same session runs without asking, with nobody watching
        Processes.Result second = box.shellgate(env, null, "-c", "touch again");
        assertThat(second.code()).as(second.toString()).isZero();
        assertThat(box.work.resolve("again")).exists();
        List<String> log = box.shellgate("log", "--json").out().lines().toList();
        assertThat(log.getLast()).contains("\"step\":\"memory\"").contains("\"session\":\"wrap-1\"");
    }

    @Test
    void aProjectAnswerIsRememberedInTheUserPolicy() throws Exception {
        Map<String, String> env = env(Mode.SERVER, 120);
        try (ApprovalsWatch watch = ApprovalsWatch.start(box)) {
            CompletableFuture<Processes.Result> client = background(env, "touch kept");
            watch.awaitQuestion();
            assertThat(watch.answer("p")).contains("always in this project");
            assertThat(client.get(60, TimeUnit.SECONDS).code()).isZero();
        }
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
    void anAgentCannotAnswerItsOwnAsks() throws Exception {
        Map<String, String> env = env(Mode.SERVER, 120);
        // its commands may not run the watcher or answer from the command line
        Processes.Result watch = box.shellgate(env, null, "-c", "shellgate approvals --watch");
        assertThat(watch.err()).startsWith("shellgate: refused (answers-own-review)");
        Processes.Result answer = box.shellgate("approvals", "3f2a", "once");
        assertThat(answer.code()).isEqualTo(2);
        assertThat(answer.err()).contains("there is no command that answers one");
        // the watcher needs a terminal, and one watcher at a time
        Processes.Result piped = box.shellgate("approvals", "--watch");
        assertThat(piped.code()).isEqualTo(4);
        assertThat(piped.err()).contains("needs a terminal");
        try (ApprovalsWatch first = ApprovalsWatch.start(box); TestTerminal second = TestTerminal.start(box, "approvals")) {
            assertThat(second.await("is watching")).contains("another shellgate approvals --watch");
            assertThat(second.exitCode()).isEqualTo(4);
        }
        // files an agent's tools could write in the state directory answer nothing
        Path state = box.home.resolve(".local/state/shellgate");
        Files.createDirectories(state);
        Files.writeString(state.resolve("approvals.sock"), "{\"v\":1,\"answer\":\"once\"}\n");
        Processes.Result forged = box.shellgate(env, null, "-c", "touch forged");
        assertThat(forged.err()).contains("nobody can answer");
        assertThat(box.work.resolve("forged")).doesNotExist();
    }

    /** {@code shellgate -c COMMAND} in a terminal of its own (script(1)), as a person's terminal would run it. */
    private static Process inATerminal(Map<String, String> env, Path cwd, String command) throws Exception {
        return Processes.start(List.of("script", "-q", "-e", "-c", io.shellgate.it.agents.Hooks.word(Processes.launcher().toString()) + " -c '" + command + "'", "/dev/null"),
                env, cwd);
    }

    private static String awaitOn(Process p, String marker) throws Exception {
        StringBuilder seen = new StringBuilder();
        byte[] buf = new byte[4096];
        while (!seen.toString().contains(marker)) {
            int n = p.getInputStream().read(buf);
            assertThat(n).as("terminal output so far: " + seen).isPositive();
            seen.append(new String(buf, 0, n, StandardCharsets.UTF_8));
        }
        return seen.toString();
    }

    @Test
    void thePersonAtTheTerminalCanAnswer() throws Exception {
        Map<String, String> env = env(Mode.SERVER, 60);
        Process p = inATerminal(env, box.work, "touch from-tty");
        assertThat(awaitOn(p, "[n] refuse: ")).contains("touch from-tty").contains("touch is not on the read-only list");
        // a person reads the question before answering: a key within 300 ms of it is no answer
        Thread.sleep(400);
        OutputStream in = p.getOutputStream();
        in.write("y".getBytes(StandardCharsets.UTF_8));
        in.flush();
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).isZero();
        assertThat(box.work.resolve("from-tty")).exists();
        assertThat(box.shellgate("log").out()).contains("approved once by a person at the terminal");
    }

    @Test
    void textWrittenToTheClientsTerminalNeverApproves() throws Exception {
        Map<String, String> env = env(Mode.SERVER, 60);
        for (String typed : List.of("yes\n", "o")) {
            Process p = inATerminal(env, box.work, "touch typed");
            awaitOn(p, "[n] refuse: ");
            Thread.sleep(400);
            OutputStream in = p.getOutputStream();
            in.write(typed.getBytes(StandardCharsets.UTF_8));
            in.flush();
            String rest = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
            assertThat(p.exitValue()).as(typed).isEqualTo(126);
            assertThat(rest).as(typed).contains(typed.equals("o") ? "'o' is not an answer" : "keys arrived at once");
        }
        assertThat(box.work.resolve("typed")).doesNotExist();
    }

    @Test
    void underWrapTheTerminalIsNeverAsked() throws Exception {
        Map<String, String> env = env(Mode.SERVER, 600);
        env.put("SHELLGATE_WRAPPED", "1");
        // a terminal whose keys may be the agent's: the ask is refused at once instead of shown there
        Process p = Processes.start(List.of("script", "-q", "-e", "-c",
                io.shellgate.it.agents.Hooks.word(Processes.launcher().toString()) + " -c 'touch wrapped'", "/dev/null"), env,
                box.work);
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).isEqualTo(126);
        assertThat(out).contains("nobody can answer").doesNotContain("[r]efuse");
        assertThat(box.work.resolve("wrapped")).doesNotExist();
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
        String input = "{\"hook_event_name\":\"PreToolUse\",\"tool_name\":\"Bash\",\"session_id\":\"s9\",\"cwd\":\"%s\",\"tool_input\":{\"command\":\"%s\"}}";
        Processes.Result remembered = box.shellgate(Sandbox.bytes(input.formatted(box.work, "make test")), "hook", "claude-code");
        assertThat(remembered.out()).contains("\"permissionDecision\":\"allow\"").contains("approved (memory)");
        Processes.Result ask = box.shellgate(Sandbox.bytes(input.formatted(box.work, "make install")), "hook", "claude-code");
        assertThat(ask.out()).contains("\"permissionDecision\":\"ask\"");
        assertThat(box.shellgate("log", "--json").out()).contains("\"entry\":\"hook\"").contains("\"session\":\"claude-code-s9\"");
    }

    @Test
    void rememberedApprovalsAreListedReportedByCheckAndRevoked() throws Exception {
        Path policy = Files.createDirectories(box.home.resolve(".config/shellgate")).resolve("policy.toml");
        Files.writeString(policy, """
                version = 1

                # approved 2026-12-01T10:00:00Z by me
                [[approved]]
                id = "approved-touch"
                command = "touch approved-file"
                note = "approved 2026-12-01T10:00:00Z by me"

                [[approved]]
                id = "make-test"
                prefix = ["make", "test"]
                max-args = 0
                project = "%s"
                """.formatted(box.work));
        // it runs through the gate: one decision of the audit log made by the first approval
        Processes.Result ran = box.shellgate("-c", "touch approved-file");
        assertThat(ran.code()).as(ran.toString()).isZero();
        assertThat(box.work.resolve("approved-file")).exists();

        Processes.Result list = box.shellgate("approvals", "list");
        assertThat(list.code()).as(list.toString()).isZero();
        assertThat(list.out())
                .contains("approved-touch  (user: " + policy + ":")
                .contains("  approves: exactly touch approved-file\n  where:    everywhere\n"
                        + "  note:     approved 2026-12-01T10:00:00Z by me\n  expires:  never\n  used:     1 times")
                .contains("make-test  (user: ")
                .contains("  approves: commands starting with make test, at most 0 more arguments\n  where:    " + box.work
                        + " and everything under it\n");

        Processes.Result check = box.shellgate("check", "--", "touch approved-file");
        assertThat(check.code()).isEqualTo(10);
        assertThat(check.out()).contains("approved by approved-touch (" + policy + "): would run without asking");
        assertThat(box.shellgate("check", "--json", "--", "touch approved-file").out()).contains("\"approved_by\":\"approved-touch\"");
        assertThat(box.shellgate("explain", "--", "touch approved-file").out()).contains("approved by approved-touch");
        assertThat(box.shellgate("check", "--", "touch other-file").out()).doesNotContain("approved by");

        Processes.Result revoke = box.shellgate("approvals", "revoke", "approved-touch");
        assertThat(revoke.code()).as(revoke.toString()).isZero();
        assertThat(revoke.out()).contains("revoked approved-touch (" + policy + "): touch approved-file asks again");
        assertThat(Files.readString(policy)).doesNotContain("approved-touch").doesNotContain("# approved 2026")
                .contains("id = \"make-test\"");
        assertThat(box.shellgate("check", "--", "touch approved-file").out()).doesNotContain("approved by");
        assertThat(box.shellgate("-c", "touch approved-file").code()).isEqualTo(126);
        assertThat(box.shellgate("approvals", "list").out()).doesNotContain("approved-touch").contains("make-test");

        Processes.Result unknown = box.shellgate("approvals", "revoke", "approved-touch");
        assertThat(unknown.code()).isEqualTo(2);
        assertThat(unknown.err()).contains("no remembered approval with the id approved-touch");
    }
}
