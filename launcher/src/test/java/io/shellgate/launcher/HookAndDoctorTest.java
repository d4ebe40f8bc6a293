package io.shellgate.launcher;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

class HookAndDoctorTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    private static JsonNode hook(String input) throws Exception {
        MainTest.Run r = MainTest.run(input, "hook", "claude-code");
        assertThat(r.code()).isEqualTo(0);
        return r.out().isBlank() ? null : JSON.readTree(r.out()).get("hookSpecificOutput");
    }

    @Test
    void answersClaudeCodesPreToolUseHookForBash() throws Exception {
        JsonNode deny = hook("{\"hook_event_name\":\"PreToolUse\",\"tool_name\":\"Bash\",\"cwd\":\"/tmp\","
                + "\"tool_input\":{\"command\":\"rm -rf ~\",\"description\":\"clean\"}}");
        assertThat(deny.get("hookEventName").asText()).isEqualTo("PreToolUse");
        assertThat(deny.get("permissionDecision").asText()).isEqualTo("deny");
        assertThat(deny.get("permissionDecisionReason").asText()).contains("rm-recursive-critical");
        assertThat(hook("{\"hook_event_name\":\"PreToolUse\",\"tool_name\":\"Bash\",\"cwd\":\"/tmp\",\"tool_input\":{\"command\":\"ls -la\"}}")
                .get("permissionDecision").asText()).isEqualTo("allow");
        assertThat(hook("{\"hook_event_name\":\"PreToolUse\",\"tool_name\":\"Bash\",\"cwd\":\"/tmp\",\"tool_input\":{\"command\":\"npm install\"}}")
                .get("permissionDecision").asText()).isEqualTo("ask");
    }

    @Test
    void aVariableTheSessionMayHaveSetIsUnknownNotEmpty() throws Exception {
        // Claude Code's shell lives on between tool calls: CMD may hold anything by now
        JsonNode r = hook("{\"hook_event_name\":\"PreToolUse\",\"tool_name\":\"Bash\",\"cwd\":\"/tmp\",\"tool_input\":{\"command\":\"$SG_TEST_UNSET_CMD\"}}");
        assertThat(r.get("permissionDecision").asText()).isEqualTo("ask");
        assertThat(hook("{\"hook_event_name\":\"PreToolUse\",\"tool_name\":\"Bash\",\"cwd\":\"/tmp\",\"tool_input\":{\"command\":\"ls $SG_TEST_UNSET_DIR\"}}")
                .get("permissionDecision").asText()).isEqualTo("ask");
    }

    @Test
    void otherToolsAreLeftToClaudeCode() throws Exception {
        assertThat(hook("{\"tool_name\":\"Write\",\"tool_input\":{\"file_path\":\"/tmp/x\"}}")).isNull();
    }

    @Test
    void unreadableInputIsDeniedNeverAllowed() throws Exception {
        assertThat(hook("not json").get("permissionDecision").asText()).isEqualTo("deny");
        assertThat(hook("{\"hook_event_name\":\"PreToolUse\",\"tool_name\":\"Bash\",\"tool_input\":{}}").get("permissionDecision").asText()).isEqualTo("deny");
        assertThat(MainTest.run("{}", "hook", "cursor").code()).isEqualTo(2);
    }

    @Test
    void doctorNamesTheShellThePolicyAndTheJdk() {
        MainTest.Run r = MainTest.run("", "doctor");
        assertThat(r.out()).contains("shell:").contains("chosen by").contains("policy:").contains("server:").contains("java:");
    }
}
