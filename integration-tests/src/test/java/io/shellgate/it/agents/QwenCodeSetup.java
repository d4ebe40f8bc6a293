package io.shellgate.it.agents;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * Qwen Code: a Node bundle forked from Gemini CLI, speaking OpenAI chat completions. {@code -p} runs
 * one prompt, {@code --yolo} approves every tool. The hook is a PreToolUse hook (Claude Code's event
 * and output format) for {@code run_shell_command} in {@code ~/.qwen/settings.json}.
 */
final class QwenCodeSetup implements AgentSetup {

    @Override
    public String shellTool() {
        return ChatCompletionsStub.TOOL;
    }

    @Override
    public StubModel stub(AgentRun run) throws IOException {
        return new ChatCompletionsStub(run.command());
    }

    @Override
    public void configure(Path home, StubModel stub, AgentRun run) throws IOException {
        ObjectNode settings = StubModel.object();
        ObjectNode security = settings.putObject("security");
        security.putObject("folderTrust").put("enabled", false);
        security.putObject("auth").put("selectedType", "openai");
        settings.putObject("privacy").put("usageStatisticsEnabled", false);
        settings.putObject("telemetry").put("enabled", false);
        settings.putObject("general").put("enableAutoUpdate", false).put("disableAutoUpdate", true);
        if (run.hook() != null) {
            settings.set("hooks", Hooks.claudeStyle("PreToolUse", shellTool(), run.hook()));
        }
        AgentSetup.writeSettings(home.resolve(".qwen/settings.json"), settings, run);
    }

    @Override
    public Map<String, String> env(StubModel stub) {
        return Map.of("OPENAI_API_KEY", "stub-not-a-key", "OPENAI_BASE_URL", stub.baseUrl() + "/v1",
                "OPENAI_MODEL", "stub-model");
    }

    @Override
    public List<String> argv(Path install, AgentRun run) {
        return List.of(install.resolve("node_modules/.bin/qwen").toString(), "-p", run.prompt(), "--yolo");
    }
}
