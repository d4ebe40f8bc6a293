package io.shellgate.it.agents;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * OpenCode: a Bun executable, speaking OpenAI chat completions to a custom provider in
 * {@code ~/.config/opencode/opencode.json}. {@code opencode run --auto} runs one prompt and
 * approves every permission. Its gate is a plugin: shellgate's own ({@code shellgate setup
 * opencode} writes it), its hook command set to the run's. OpenCode installs its plugin package
 * from npm into every config folder that lacks it; the folder is marked as installed, so nothing
 * leaves the machine.
 */
final class OpenCodeSetup implements AgentSetup {

    static final String TOOL = "bash";

    /** The line of shellgate's plugin that names the hook command. */
    private static final String HOOK_LINE = "const HOOK = [\"shellgate-hook\", \"opencode\"]";

    /** Where shellgate-hook is at the start of a hook command line, then the agent: the argv setup would write. */
    private static final java.util.regex.Pattern NATIVE_HOOK =
            java.util.regex.Pattern.compile("(/[^' ]*/shellgate-hook|'/[^']*/shellgate-hook') ([a-z-]+)");

    @Override
    public String shellTool() {
        return TOOL;
    }

    @Override
    public StubModel stub(AgentRun run) throws IOException {
        return run.toolCall() != null ? new ChatCompletionsStub(run.toolCall()) : new ChatCompletionsStub(run.command(), TOOL);
    }

    @Override
    public void configure(Path home, StubModel stub, AgentRun run) throws IOException {
        Path config = home.resolve(".config/opencode");
        ObjectNode settings = StubModel.object();
        ObjectNode provider = settings.putObject("provider").putObject("stub").put("npm", "@ai-sdk/openai-compatible")
                .put("name", "Stub");
        provider.putObject("options").put("baseURL", stub.baseUrl() + "/v1").put("apiKey", "stub-not-a-key");
        provider.putObject("models").putObject("stub-model").put("name", "stub-model");
        settings.put("model", "stub/stub-model").put("autoupdate", false).put("share", "disabled");
        AgentSetup.writeSettings(config.resolve("opencode.json"), settings, run);
        markPluginPackageInstalled(config, "@opencode-ai/plugin");
        if (run.hook() != null) {
            Files.createDirectories(config.resolve("plugin"));
            Files.writeString(config.resolve("plugin/shellgate.js"), plugin(hookArgv(run.hook())));
        }
    }

    /**
     * A hook command line as the argv a plugin starts: shellgate-hook and its agent as {@code shellgate
     * setup} writes them (the plugin then keeps one {@code shellgate-hook --serve} for the session),
     * anything else (the launcher script, a recording hook) through {@code sh -c}.
     */
    static List<String> hookArgv(String hook) {
        java.util.regex.Matcher m = NATIVE_HOOK.matcher(hook);
        if (m.matches()) {
            return List.of(m.group(1).replace("'", ""), m.group(2));
        }
        return List.of("sh", "-c", hook);
    }

    /** shellgate's plugin as the distribution ships it, running {@code hook}. */
    static String plugin(List<String> hook) throws IOException {
        // from the jar the distribution ships, as shellgate setup writes it
        Path jar = Path.of(System.getProperty("shellgate.launcher")).toAbsolutePath().resolveSibling("shellgate.jar");
        try (java.nio.file.FileSystem zip = java.nio.file.FileSystems.newFileSystem(jar)) {
            String text = Files.readString(zip.getPath("/io/shellgate/launcher/internal/shellgate-opencode.js"), StandardCharsets.UTF_8);
            if (!text.contains(HOOK_LINE)) {
                throw new IOException("shellgate-opencode.js has no line " + HOOK_LINE);
            }
            return text.replace(HOOK_LINE, "const HOOK = " + StubModel.JSON.writeValueAsString(hook));
        }
    }

    /**
     * OpenCode runs npm in each config folder whose lock file does not list its plugin package
     * (a request to registry.npmjs.org that would wait on the tripwire for a minute).
     */
    static void markPluginPackageInstalled(Path config, String pluginPackage) throws IOException {
        Files.createDirectories(config.resolve("node_modules"));
        Files.writeString(config.resolve("package.json"), "{}\n");
        Files.writeString(config.resolve("package-lock.json"),
                "{\"packages\": {\"\": {\"dependencies\": {\"" + pluginPackage + "\": \"*\"}}}}\n");
    }

    @Override
    public Map<String, String> env(StubModel stub) {
        return Map.of("OPENCODE_DISABLE_AUTOUPDATE", "1", "OPENCODE_DISABLE_MODELS_FETCH", "1", "OPENCODE_DISABLE_SHARE", "1",
                "OPENCODE_DISABLE_LSP_DOWNLOAD", "1");
    }

    @Override
    public List<String> argv(Path install, AgentRun run) {
        return List.of(install.resolve("node_modules/.bin/opencode").toString(), "run", "--auto", run.prompt());
    }
}
