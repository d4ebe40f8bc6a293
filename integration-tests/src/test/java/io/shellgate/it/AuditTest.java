package io.shellgate.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.shellgate.it.Sandbox.Mode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The audit log is never lost in silence: a decision that cannot be written says so on every
 * door ({@code [audit] required = true} refuses it instead), a policy that cannot be used is logged
 * as a refusal, there is no "log nowhere", and {@code shellgate log --verify} finds an edited or
 * removed line. A full disk is {@code /dev/full}: the log's name points there.
 */
class AuditTest extends SandboxTest {

    private Path state;

    @BeforeEach
    void stateDirectory() throws Exception {
        state = Files.createDirectories(box.home.resolve(".local/state/shellgate"));
    }

    private void fullDisk() throws Exception {
        Files.deleteIfExists(state.resolve("audit.jsonl"));
        Files.createSymbolicLink(state.resolve("audit.jsonl"), Path.of("/dev/full"));
    }

    private void requireTheLog() throws Exception {
        Path user = Files.createDirectories(box.home.resolve(".config/shellgate")).resolve("policy.toml");
        Files.writeString(user, "version = 1\n[audit]\nrequired = true\n");
    }

    @ParameterizedTest
    @EnumSource(Mode.class)
    void aDecisionThatCannotBeLoggedSaysSoAndRuns(Mode mode) throws Exception {
        Map<String, String> env = box.client(mode);
        fullDisk();
        Processes.Result r = box.shellgate(env, null, "-c", "echo ran-$((6*7))");
        assertThat(r.code()).as(r.toString()).isZero();
        assertThat(r.out()).isEqualTo("ran-42\n");
        assertThat(r.err()).startsWith("shellgate: warning: this decision is not in the audit log: " + state + ": No space left on device");
        Processes.Result refused = box.shellgate(env, null, "-c", "rm -rf ~");
        assertThat(refused.err()).contains("shellgate: warning: this decision is not in the audit log")
                .contains("shellgate: refused (rm-recursive-critical)");
    }

    @ParameterizedTest
    @EnumSource(Mode.class)
    void whenTheLogIsRequiredNothingRunsWhileItCannotBeWritten(Mode mode) throws Exception {
        requireTheLog();
        Map<String, String> env = box.client(mode);
        assertThat(box.shellgate(env, null, "-c", "echo fine").out()).isEqualTo("fine\n");
        fullDisk();
        Processes.Result r = box.shellgate(env, null, "-c", "echo never-$((6*7))");
        assertThat(r.code()).isEqualTo(126);
        assertThat(r.out()).isEmpty();
        assertThat(r.err()).startsWith("shellgate: refused (audit-required): the audit log cannot be written (")
                .contains("[audit] required = true refuses every command until it can");
    }

    @Test
    void everyOtherDoorWarnsToo() throws Exception {
        fullDisk();
        Processes.Result session = box.shellgate(Sandbox.bytes("echo one\ntouch x\n"), "-s");
        assertThat(session.out()).isEqualTo("one\n");
        assertThat(session.err().lines().filter(l -> l.startsWith("shellgate: warning: this decision is not in the audit log")))
                .hasSize(2);
        String input = "{\"hook_event_name\":\"PreToolUse\",\"tool_name\":\"Bash\",\"cwd\":\"%s\",\"tool_input\":{\"command\":\"ls\"}}".formatted(box.work);
        Processes.Result hook = box.shellgate(Sandbox.bytes(input), "hook", "claude-code");
        assertThat(hook.out()).contains("\"permissionDecision\":\"allow\"").contains("not in the audit log");
        assertThat(hook.err()).contains("shellgate: warning: this decision is not in the audit log");
        for (AgentJvm jvm : List.of(AgentJvm.of(17, "server"), AgentJvm.of(25, "in-process"))) {
            Processes.Result tool = jvm.run(box, "", "pb", "echo", "hi");
            assertThat(tool.out()).as(jvm.toString()).contains("RAN exit=0 out=hi");
            assertThat(tool.err()).as(jvm.toString()).contains("shellgate: warning: this decision is not in the audit log");
        }
        Files.writeString(box.home.resolve(".bashrc"), "PS1='ready> '\n");
        box.env.put("HISTFILE", "/dev/null");
        try (TestTerminal term = TestTerminal.start(box, "shell", "--shell", "bash")) {
            term.await("ready> ");
            term.type("echo shown-$((6*7))\r");
            assertThat(term.awaitAll("shellgate: warning: this decision is not in the audit log", "shown-42")).isNotEmpty();
        }
    }

    @Test
    void aBrokenPolicyIsARefusalThatIsLogged() throws Exception {
        Path user = Files.createDirectories(box.home.resolve(".config/shellgate")).resolve("policy.toml");
        Files.writeString(user, "version = 1\n[[rule]]\nid = \"Bad Id\"\n");
        Processes.Result r = box.shellgate(box.client(Mode.NO_SERVER), null, "-c", "ls");
        assertThat(r.code()).isEqualTo(126);
        assertThat(r.err()).startsWith("shellgate: refused (policy-error)");
        String log = box.shellgate("log", "--json", "--tier", "error").out();
        assertThat(log).contains("\"cmd\":\"ls\"").contains("\"rules\":[\"policy-error\"]").contains("\"run\":false");
        // a policy path that is not a file is an error too, never a layer passed over in silence
        Files.delete(user);
        Files.createDirectories(user);
        Processes.Result dir = box.shellgate(box.client(Mode.NO_SERVER), null, "-c", "ls");
        assertThat(dir.code()).isEqualTo(126);
        assertThat(dir.err()).contains("the user policy is not a readable file (it is a directory)");
        Files.delete(user);
        Files.createSymbolicLink(user, user);
        assertThat(box.shellgate(box.client(Mode.NO_SERVER), null, "-c", "ls").err())
                .contains("the user policy is not a readable file (a link that leads nowhere, or in a loop)");
    }

    @Test
    void withNowhereToLogEverythingIsRefusedWithTheReason() throws Exception {
        Map<String, String> env = new HashMap<>(box.client(Mode.NO_SERVER));
        env.remove("HOME");
        env.remove("XDG_STATE_HOME");
        env.remove("SHELLGATE_STATE_DIR");
        Processes.Result r = box.shellgate(env, null, "-c", "echo hi");
        assertThat(r.code()).isEqualTo(126);
        assertThat(r.out()).isEmpty();
        assertThat(r.err()).isEqualTo("shellgate: refused (audit-unavailable): there is nowhere to write the audit log:"
                + " neither SHELLGATE_STATE_DIR, XDG_STATE_HOME nor HOME is set for shellgate; set one of them\n");
    }

    @Test
    void logVerifyFindsAnEditedARemovedAndATruncatedLine() throws Exception {
        Map<String, String> env = box.client(Mode.SERVER);
        for (String c : List.of("ls", "rm -rf ~", "touch a", "echo b", "pwd")) {
            box.shellgate(env, null, "-c", c);
        }
        Processes.Result intact = box.shellgate("log", "--verify");
        assertThat(intact.code()).as(intact.toString()).isZero();
        assertThat(intact.out()).startsWith("intact: 5 records");
        Path log = state.resolve("audit.jsonl");
        List<String> lines = Files.readAllLines(log);
        // the refusal turned into a run
        List<String> edited = new ArrayList<>(lines);
        edited.set(1, lines.get(1).replace("\"run\":false", "\"run\":true"));
        Files.write(log, edited);
        Processes.Result afterEdit = box.shellgate("log", "--verify");
        assertThat(afterEdit.code()).isEqualTo(5);
        assertThat(afterEdit.out()).contains("BROKEN: audit.jsonl:3: the record before it was changed");
        // a record taken out
        List<String> removed = new ArrayList<>(lines);
        removed.remove(2);
        Files.write(log, removed);
        assertThat(box.shellgate("log", "--verify").out()).contains("BROKEN: audit.jsonl:3: seq 4 follows seq 2: 1 record(s)"
                + " removed before it");
        // the newest ones taken out
        Files.write(log, lines.subList(0, 3));
        assertThat(box.shellgate("log", "--verify").out()).contains("BROKEN: the newest record kept is seq 3, but the last one"
                + " written was seq 5");
        Files.write(log, lines);
        assertThat(box.shellgate("log", "--verify").code()).isZero();
    }
}
