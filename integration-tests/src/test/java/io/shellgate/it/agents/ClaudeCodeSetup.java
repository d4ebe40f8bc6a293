package io.shellgate.it.agents;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * Claude Code: a native (Bun) binary. {@code -p} runs one prompt without a terminal, and
 * {@code --dangerously-skip-permissions} runs every tool without asking; as root it refuses that
 * flag unless {@code IS_SANDBOX=1}. The hook is a PreToolUse hook for {@code Bash} in the user's
 * {@code ~/.claude/settings.json}.
 */
final class ClaudeCodeSetup implements AgentSetup {

    @Override
    public String shellTool() {
        return AnthropicStub.TOOL;
    }

    @Override
    public StubModel stub(AgentRun run) throws IOException {
        return new AnthropicStub(run.command());
    }

    @Override
    public void configure(Path home, StubModel stub, AgentRun run) throws IOException {
        ObjectNode settings = StubModel.object();
        if (run.hook() != null) {
            settings.set("hooks", Hooks.claudeStyle("PreToolUse", shellTool(), run.hook()));
        }
        AgentSetup.writeSettings(home.resolve(".claude/settings.json"), settings, run);
    }

    @Override
    public Map<String, String> env(StubModel stub) {
        return Map.of(
                "ANTHROPIC_BASE_URL", stub.baseUrl(),
                "ANTHROPIC_API_KEY", "sk-ant-stub-not-a-key",
                // bypassPermissions is refused as root (CI runs as root) unless the machine says it is a sandbox
                "IS_SANDBOX", "1",
                // no telemetry, error reports, feature flags or update checks: else it calls api.anthropic.com
                "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC", "1",
                "DISABLE_AUTOUPDATER", "1",
                "DISABLE_TELEMETRY", "1",
                "DISABLE_ERROR_REPORTING", "1");
    }

    @Override
    public List<String> argv(Path install, AgentRun run) {
        return List.of(install.resolve("node_modules/.bin/claude").toString(), "-p",
                "--dangerously-skip-permissions", run.prompt());
    }
}
