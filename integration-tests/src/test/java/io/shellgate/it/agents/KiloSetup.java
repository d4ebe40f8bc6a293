package io.shellgate.it.agents;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * Kilo ({@code @kilocode/cli}, a fork of OpenCode): a Bun executable, speaking OpenAI chat
 * completions to a custom provider in {@code ~/.config/kilo/kilo.json}. {@code kilo run --auto}
 * runs one prompt and approves every permission. Its gate is OpenCode's plugin, which Kilo loads
 * from {@code ~/.config/kilo/plugin/} ({@code shellgate setup kilo} writes it), naming the agent
 * {@code kilo}. Like OpenCode it installs its plugin package from npm into every config folder that
 * lacks it (a minute's wait on the tripwire): the folder is marked as installed.
 */
final class KiloSetup implements AgentSetup {

    @Override
    public String shellTool() {
        return OpenCodeSetup.TOOL;
    }

    @Override
    public StubModel stub(AgentRun run) throws IOException {
        return run.toolCall() != null ? new ChatCompletionsStub(run.toolCall())
                : new ChatCompletionsStub(run.command(), OpenCodeSetup.TOOL);
    }

    @Override
    public void configure(Path home, StubModel stub, AgentRun run) throws IOException {
        Path config = home.resolve(".config/kilo");
        ObjectNode settings = StubModel.object();
        ObjectNode provider = settings.putObject("provider").putObject("stub").put("npm", "@ai-sdk/openai-compatible")
                .put("name", "Stub");
        provider.putObject("options").put("baseURL", stub.baseUrl() + "/v1").put("apiKey", "stub-not-a-key");
        provider.putObject("models").putObject("stub-model").put("name", "stub-model");
        settings.put("model", "stub/stub-model").put("autoupdate", false).put("share", "disabled");
        // Kilo's own gateway and the providers it lists fetch their models at start (api.kilo.ai), whatever
        // KILO_DISABLE_MODELS_FETCH says: only the stub is loaded
        settings.putArray("enabled_providers").add("stub");
        AgentSetup.writeSettings(config.resolve("kilo.json"), settings, run);
        OpenCodeSetup.markPluginPackageInstalled(config, "@kilocode/plugin");
        if (run.hook() != null) {
            Files.createDirectories(config.resolve("plugin"));
            String plugin = OpenCodeSetup.plugin(OpenCodeSetup.hookArgv(run.hook()));
            Files.writeString(config.resolve("plugin/shellgate.js"), plugin);
        }
    }

    @Override
    public Map<String, String> env(StubModel stub) {
        return Map.of("KILO_DISABLE_AUTOUPDATE", "1", "KILO_DISABLE_MODELS_FETCH", "1", "KILO_DISABLE_SHARE", "1",
                "KILO_DISABLE_LSP_DOWNLOAD", "1", "KILO_TELEMETRY_LEVEL", "off", "KILO_DISABLE_SESSION_INGEST", "1");
    }

    @Override
    public List<String> argv(Path install, AgentRun run) {
        return List.of(install.resolve("node_modules/.bin/kilo").toString(), "run", "--auto", run.prompt());
    }
}
