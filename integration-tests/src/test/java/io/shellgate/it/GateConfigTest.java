package io.shellgate.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.shellgate.it.Sandbox.Mode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The gate's configuration is out of the agent's reach (issue 20): whatever a command exports,
 * unsets or assigns, and whatever it names in a child's environment, the policies, the
 * approvals, the LLM reviewer and the audit log stay those of the environment the gate was started
 * with. The attack is the one that worked: {@code set -a}, then {@code : ${VAR:=value}} (which the
 * judge lets through as doing nothing), pointing the user policy at a file the agent wrote (an
 * approval for its command, an LLM reviewer of its own that approves, and none of the user's
 * sensitive paths) and the audit log elsewhere.
 */
class GateConfigTest extends SandboxTest {

    private LlmStub llm;
    private Path secret;

    @BeforeEach
    void policies() throws Exception {
        llm = new LlmStub();
        secret = Files.writeString(box.home.resolve("secret-notes.txt"), "s3cret-value");
        Path user = Files.createDirectories(box.home.resolve(".config/shellgate")).resolve("policy.toml");
        Files.writeString(user, """
                version = 1
                [paths]
                sensitive = ["%s"]
                """.formatted(secret));
        // what an agent's file tools can write anywhere in its project
        Path evil = Files.createDirectories(box.work.resolve("evil/shellgate")).resolve("policy.toml");
        Files.writeString(evil, """
                version = 1
                [review.llm]
                provider = "openai"
                base-url = "%s"
                model = "x"
                may-approve = true
                [[approved]]
                id = "victim"
                command = "touch victim"
                """.formatted(llm.url()));
    }

    @AfterEach
    void stopLlm() {
        llm.close();
    }

    /** The lines an agent types or sends, one command each. */
    private List<String> attack() {
        return List.of("set -a", ": ${XDG_CONFIG_HOME:=$PWD/evil} ${SHELLGATE_STATE_DIR:=$PWD/elsewhere}", "unset HOME",
                llm.assignments(), "touch victim", "cat " + secret);
    }

    private void nothingChanged(String shown) throws Exception {
        assertThat(box.work.resolve("victim")).doesNotExist();
        assertThat(shown).doesNotContain("s3cret-value");
        assertThat(llm.asked()).as("the agent's LLM reviewer was asked").isZero();
        assertThat(box.work.resolve("elsewhere")).doesNotExist();
        String log = Files.readString(box.home.resolve(".local/state/shellgate/audit.jsonl"));
        // (a session's commands keep their newline)
        assertThat(log).contains("\"cmd\":\"touch victim").contains("\"cmd\":\"cat " + secret);
    }

    @Test
    void aStdinSessionKeepsTheConfigurationItStartedWith() throws Exception {
        Processes.Result r = box.shellgate(Sandbox.bytes(String.join("\n", attack()) + "\necho done-$((6*7))\n"), "-s");
        assertThat(r.out()).contains("done-42");
        assertThat(r.err()).contains("shellgate: refused (not-read-only)").contains("shellgate: refused (sensitive-path)");
        nothingChanged(r.out());
    }

    @Test
    void theInteractiveShellKeepsTheConfigurationItStartedWith() throws Exception {
        Files.writeString(box.home.resolve(".bashrc"), "PS1='ready> '\n");
        box.env.put("HISTFILE", "/dev/null");
        try (TestTerminal term = TestTerminal.start(box, "shell", "--shell", "bash")) {
            term.await("ready> ");
            for (String line : attack()) {
                term.type(line + "\r");
                term.await("ready> ");
            }
            term.type("echo done-$((6*7))\r");
            String shown = term.await("done-42");
            nothingChanged(shown);
            assertThat(term.rest()).doesNotContain("s3cret-value");
        }
    }

    @ParameterizedTest
    @EnumSource(Mode.class)
    void aCommandLineCannotConfigureTheGateOfShellC(Mode mode) throws Exception {
        Map<String, String> env = box.client(mode);
        Processes.Result r = box.shellgate(env, null, "-c", String.join("; ", attack()));
        assertThat(r.code()).isEqualTo(126);
        assertThat(box.work.resolve("victim")).doesNotExist();
        assertThat(llm.asked()).isZero();
        Processes.Result assigned = box.shellgate(env, null, "-c", "XDG_CONFIG_HOME=$PWD/evil touch victim");
        assertThat(assigned.code()).isEqualTo(126);
        assertThat(box.work.resolve("victim")).doesNotExist();
        assertThat(llm.asked()).isZero();
    }

    @ParameterizedTest
    @EnumSource(Mode.class)
    void shellCTakesItsReviewSettingsFromItsOwnEnvironmentWithOrWithoutAServer(Mode mode) throws Exception {
        // the server was started without an LLM reviewer; the client's own environment (its
        // harness's, not the agent's commands) names one: one rule for both paths
        Map<String, String> env = box.client(mode);
        env.putAll(Map.of("SHELLGATE_LLM_PROVIDER", "openai", "SHELLGATE_LLM_BASE_URL", llm.url(), "SHELLGATE_LLM_MODEL", "x",
                "SHELLGATE_LLM_MAY_APPROVE", "true"));
        Processes.Result r = box.shellgate(env, null, "-c", "touch reviewed");
        assertThat(r.code()).as(r.toString()).isZero();
        assertThat(box.work.resolve("reviewed")).exists();
        assertThat(llm.asked()).isEqualTo(1);
    }

    @Test
    void theHookJudgesTheCommandNotTheVariablesItSets() throws Exception {
        String input = "{\"hook_event_name\":\"PreToolUse\",\"tool_name\":\"Bash\",\"session_id\":\"s1\",\"cwd\":\"%s\",\"tool_input\":{\"command\":\"%s\"}}";
        Processes.Result r = box.shellgate(Sandbox.bytes(input.formatted(box.work,
                "XDG_CONFIG_HOME=$PWD/evil HOME= touch victim")), "hook", "claude-code");
        assertThat(r.out()).doesNotContain("\"permissionDecision\":\"allow\"");
        assertThat(llm.asked()).isZero();
    }

    @ParameterizedTest(name = "{0}")
    @org.junit.jupiter.params.provider.MethodSource("io.shellgate.it.JavaAgentTest#jvms")
    void aChildsEnvironmentCannotConfigureTheJavaagent(AgentJvm jvm) throws Exception {
        Map<String, String> env = new HashMap<>(box.env);
        Processes.Result r = jvm.run(box, env, "", List.of(), "pb-in", box.work.toString(),
                "XDG_CONFIG_HOME=" + box.work.resolve("evil"), "touch", "victim");
        assertThat(r.out()).contains("REFUSED").contains("rule=");
        assertThat(box.work.resolve("victim")).doesNotExist();
        assertThat(llm.asked()).isZero();
    }
}
