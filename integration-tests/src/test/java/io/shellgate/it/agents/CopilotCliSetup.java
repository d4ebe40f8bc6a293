package io.shellgate.it.agents;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * GitHub Copilot CLI: a Node single-executable that unpacks its JavaScript into a package cache on
 * first start (shared by all runs, beside the installed agents), speaking OpenAI chat completions
 * to the provider in {@code COPILOT_PROVIDER_BASE_URL} with {@code COPILOT_OFFLINE} (no GitHub
 * login, no telemetry). {@code -p} runs one prompt, {@code --yolo} allows every tool. Its shell tool
 * is {@code bash}; its {@code preToolUse} command hooks live in {@code ~/.copilot/hooks/*.json} and
 * get {@code toolName} and {@code toolArgs}, not the others' {@code tool_input}.
 */
final class CopilotCliSetup implements AgentSetup {

    static final String TOOL = "bash";

    @Override
    public String shellTool() {
        return TOOL;
    }

    @Override
    public StubModel stub(AgentRun run) throws IOException {
        if (run.toolCall() != null) {
            return new ChatCompletionsStub(run.toolCall());
        }
        // a command per line: a session of several, the next called after each result
        return run.command().contains("\n") ? new ChatCompletionsStub(List.of(run.command().split("\n")), TOOL)
                : new ChatCompletionsStub(run.command(), TOOL);
    }

    @Override
    public void configure(Path home, StubModel stub, AgentRun run) throws IOException {
        if (run.hook() != null) {
            // the file shellgate setup copilot-cli writes
            ObjectNode file = StubModel.object().put("version", 1);
            file.putObject("hooks").putArray("preToolUse").addObject().put("type", "command").put("bash", run.hook())
                    .put("timeoutSec", 60);
            AgentSetup.writeSettings(home.resolve(".copilot/hooks/shellgate.json"), file, run);
        }
    }

    @Override
    public Map<String, String> env(StubModel stub) {
        try {
            return Map.of("COPILOT_OFFLINE", "true", "COPILOT_PROVIDER_BASE_URL", stub.baseUrl() + "/v1",
                    "COPILOT_PROVIDER_API_KEY", "stub-not-a-key", "COPILOT_MODEL", "stub-model", "COPILOT_AUTO_UPDATE", "false",
                    // its unpacked JavaScript (235 MB) once for all runs, not in every run's HOME
                    "COPILOT_PKG_CACHE_HOME", Agents.install().resolve("copilot-pkg").toString());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    @Override
    public List<String> argv(Path install, AgentRun run) {
        List<String> argv = new ArrayList<>(List.of(install.resolve("node_modules/.bin/copilot").toString(), "-p", run.prompt(),
                "--yolo", "--no-auto-update", "--disable-client-telemetry"));
        return argv;
    }

    @Override
    public String hookCommand(JsonNode input) {
        return input.path("toolArgs").path("command").asText();
    }
}
