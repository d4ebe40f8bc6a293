package io.shellgate.it.agents;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.shellgate.it.TestTerminal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Claude Code in its interactive terminal interface with shellgate as its PreToolUse hook: a command
 * shellgate asks about brings up Claude Code's own confirmation dialog, although Claude Code's own
 * settings would have run any Bash command without asking, and the person's answer there decides.
 */
class ClaudeDialogTest {

    private static final String COMMAND = "touch made-by-the-agent";

    @BeforeAll
    static void agents() throws Exception {
        Agents.installOrSkip();
    }

    @Test
    void anAskBringsUpClaudeCodesDialogAndNoKeepsTheCommandFromRunning() throws Exception {
        Path root = Agents.newRunFolder("claude-dialog-no");
        try (AnthropicStub stub = new AnthropicStub(COMMAND); Tripwire tripwire = new Tripwire();
                TestTerminal terminal = claude(root, stub, tripwire)) {
            String dialog = terminal.awaitOnScreen("Do you want to proceed?");
            // shellgate's reason is in Claude Code's dialog (the screen's words without their spaces)
            assertThat(dialog).contains("HookPreToolUse:Bashrequiresconfirmation").contains("shellgateask")
                    .contains("touchisnotontheread-onlylist");
            terminal.type("\u001b");
            // Esc declines and ends Claude Code's turn: no tool result goes to the model until the person types again
            terminal.awaitOnScreen("Interrupted");
            assertThat(root.resolve("work/made-by-the-agent")).doesNotExist();
            assertThat(stub.toolResults()).isEmpty();
            // the ask is logged as handed to the dialog, whose answer the gate does not hear; no record says it ran
            List<JsonNode> audit = audit(root);
            assertThat(audit).filteredOn(n -> n.path("cmd").asText().equals(COMMAND)).singleElement()
                    .satisfies(n -> {
                        assertThat(n.path("step").asText()).isEqualTo("agent");
                        assertThat(n.get("run").isNull()).as(n.toString()).isTrue();
                    });
        } finally {
            Agents.stopServer(root);
        }
    }

    @Test
    void yesInTheDialogRunsTheCommand() throws Exception {
        Path root = Agents.newRunFolder("claude-dialog-yes");
        try (AnthropicStub stub = new AnthropicStub(COMMAND); Tripwire tripwire = new Tripwire();
                TestTerminal terminal = claude(root, stub, tripwire)) {
            terminal.awaitOnScreen("Do you want to proceed?");
            terminal.type("\r");
            awaitToolResult(stub);
            assertThat(root.resolve("work/made-by-the-agent")).exists();
            // Claude Code's PostToolUse told the audit log that the command asked in its dialog ran
            List<JsonNode> made = new java.util.ArrayList<>();
            for (int i = 0; i < 300 && made.size() < 2; i++) {
                made = audit(root).stream().filter(n -> n.path("cmd").asText().equals(COMMAND)).toList();
                Thread.sleep(100);
            }
            assertThat(made).hasSize(2);
            assertThat(made.get(0).get("run").isNull()).as(made.get(0).toString()).isTrue();
            assertThat(made.get(1).path("run").asBoolean(false)).as(made.get(1).toString()).isTrue();
            assertThat(made.get(1).path("message").asText()).contains("ran after the agent's own dialog");
        } finally {
            Agents.stopServer(root);
        }
    }

    /**
     * Claude Code in a terminal of 120 by 40, told to run {@link #COMMAND}, with shellgate as its
     * hook and every Bash command allowed by its own rules; onboarding, the folder's trust question
     * and the API key question are answered in its files beforehand. Its interactive mode also
     * looks for updates and plugins through the proxy, which the tripwire stops: nothing leaves.
     */
    private static TestTerminal claude(Path root, AnthropicStub stub, Tripwire tripwire) throws Exception {
        return claude(root, stub, tripwire, List.of("Bash"), null);
    }

    /**
     * As {@link #claude(Path, AnthropicStub, Tripwire)}, with these allow rules in the user's settings and Claude Code's
     * permission mode set there ({@code permissions.defaultMode}) unless {@code mode} is null.
     */
    static TestTerminal claude(Path root, AnthropicStub stub, Tripwire tripwire, List<String> allow, String mode)
            throws Exception {
        Path home = Files.createDirectories(root.resolve("home"));
        Path work = Files.createDirectories(root.resolve("work"));
        Path launcher = Path.of(System.getProperty("shellgate.launcher")).toAbsolutePath().normalize();
        ObjectNode settings = StubModel.object();
        ObjectNode hooks = Hooks.claudeStyle("PreToolUse", AnthropicStub.TOOL, Hooks.word(launcher.toString()) + " hook claude-code");
        // as shellgate setup writes it: the audit log hears that a command asked in the dialog ran
        hooks.setAll(Hooks.claudeStyle("PostToolUse", AnthropicStub.TOOL, Hooks.word(launcher.toString()) + " hook claude-code"));
        settings.set("hooks", hooks);
        ObjectNode permissions = StubModel.object().set("allow", StubModel.JSON.valueToTree(allow));
        if (mode != null) {
            permissions.put("defaultMode", mode);
        }
        settings.set("permissions", permissions);
        Files.createDirectories(home.resolve(".claude"));
        Files.writeString(home.resolve(".claude/settings.json"), settings.toPrettyString());
        String key = "sk-ant-stub-not-a-key";
        ObjectNode state = StubModel.object().put("hasCompletedOnboarding", true).put("theme", "dark");
        state.set("customApiKeyResponses", StubModel.object()
                .<ObjectNode>set("approved", StubModel.JSON.valueToTree(List.of(key.substring(key.length() - 20))))
                .set("rejected", StubModel.JSON.createArrayNode()));
        state.set("projects", StubModel.object().set(work.toString(), StubModel.object()
                .put("hasTrustDialogAccepted", true).put("hasCompletedProjectOnboarding", true)));
        Files.writeString(home.resolve(".claude.json"), state.toPrettyString());

        Map<String, String> own = new HashMap<>(new ClaudeCodeSetup().env(stub));
        Map<String, String> env = Agents.environment(home, tripwire, own, Agents.shellgateEnv(root));
        List<String> argv = List.of(Agents.install().resolve("node_modules/.bin/claude").toString(),
                "Run this shell command and tell me what it printed: " + COMMAND);
        return TestTerminal.run(argv, env, work, 120, 40);
    }

    /** The audit log's records, oldest first. */
    static List<JsonNode> audit(Path root) throws java.io.IOException {
        Path log = root.resolve("state/audit.jsonl");
        List<JsonNode> out = new java.util.ArrayList<>();
        if (Files.exists(log)) {
            for (String line : Files.readAllLines(log)) {
                out.add(StubModel.JSON.readTree(line));
            }
        }
        return out;
    }

    /** Waits until the model has been sent the tool's result (the dialog was answered and the call ended). */
    static void awaitToolResult(AnthropicStub stub) throws InterruptedException {
        for (int i = 0; i < 1800 && stub.toolResults().isEmpty(); i++) {
            Thread.sleep(100);
        }
        assertThat(stub.toolResults()).as("the tool's result reached the model").isNotEmpty();
    }

}
