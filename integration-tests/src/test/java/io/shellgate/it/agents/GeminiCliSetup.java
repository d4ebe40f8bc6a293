package io.shellgate.it.agents;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * Gemini CLI: a Node bundle. {@code -p} runs one prompt, {@code --yolo} approves every tool, but
 * only in a trusted folder (else it falls back to asking), so folder trust is switched off. The API
 * key auth type is chosen in the settings: {@code GOOGLE_GEMINI_BASE_URL} alone would select the
 * "gateway" type, which {@code -p} rejects. The hook is a BeforeTool hook for
 * {@code run_shell_command} in {@code ~/.gemini/settings.json}.
 */
final class GeminiCliSetup implements AgentSetup {

    @Override
    public String shellTool() {
        return GeminiStub.TOOL;
    }

    @Override
    public StubModel stub(AgentRun run) throws IOException {
        return new GeminiStub(run.command());
    }

    @Override
    public void configure(Path home, StubModel stub, AgentRun run) throws IOException {
        ObjectNode settings = StubModel.object();
        ObjectNode security = settings.putObject("security");
        security.putObject("folderTrust").put("enabled", false);
        security.putObject("auth").put("selectedType", "gemini-api-key");
        settings.putObject("privacy").put("usageStatisticsEnabled", false);
        settings.putObject("telemetry").put("enabled", false);
        settings.putObject("general").put("enableAutoUpdate", false).put("enableAutoUpdateNotification", false);
        if (run.hook() != null) {
            settings.set("hooks", Hooks.claudeStyle("BeforeTool", shellTool(), run.hook()));
        }
        AgentSetup.writeSettings(home.resolve(".gemini/settings.json"), settings, run);
    }

    @Override
    public Map<String, String> env(StubModel stub) {
        return Map.of("GEMINI_API_KEY", "stub-not-a-key", "GOOGLE_GEMINI_BASE_URL", stub.baseUrl());
    }

    @Override
    public List<String> argv(Path install, AgentRun run) {
        return List.of(install.resolve("node_modules/.bin/gemini").toString(), "-p", run.prompt(),
                "--yolo");
    }
}
