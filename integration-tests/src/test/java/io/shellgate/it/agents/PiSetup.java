package io.shellgate.it.agents;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * Pi ({@code @mariozechner/pi-coding-agent}): a Node program speaking OpenAI chat completions to a
 * provider of {@code ~/.pi/agent/models.json}. {@code pi -p} runs one prompt; Pi has no permission
 * step, every tool runs. Its gate is an extension: shellgate's own ({@code shellgate setup pi}
 * writes it), its hook command set to the run's. {@code PI_OFFLINE} keeps it from checking for
 * updates.
 */
final class PiSetup implements AgentSetup {

    static final String TOOL = "bash";

    private static final String HOOK_LINE = "const HOOK = [\"shellgate-hook\", \"pi\"]";

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
        Path agent = home.resolve(".pi/agent");
        var models = StubModel.object();
        var provider = models.putObject("providers").putObject("stub").put("baseUrl", stub.baseUrl() + "/v1")
                .put("api", "openai-completions").put("apiKey", "stub-not-a-key");
        provider.putObject("compat").put("supportsDeveloperRole", false).put("supportsReasoningEffort", false);
        provider.putArray("models").addObject().put("id", "stub-model");
        AgentSetup.writeSettings(agent.resolve("models.json"), models, run);
        if (run.hook() != null) {
            Files.createDirectories(agent.resolve("extensions"));
            Files.writeString(agent.resolve("extensions/shellgate.js"), extension(OpenCodeSetup.hookArgv(run.hook())));
        }
    }

    /** shellgate's extension as the distribution ships it, running {@code hook}. */
    static String extension(List<String> hook) throws IOException {
        // from the jar the distribution ships, as shellgate setup writes it
        Path jar = Path.of(System.getProperty("shellgate.launcher")).toAbsolutePath().resolveSibling("shellgate.jar");
        try (java.nio.file.FileSystem zip = java.nio.file.FileSystems.newFileSystem(jar)) {
            String text = Files.readString(zip.getPath("/io/shellgate/launcher/internal/shellgate-pi.js"), StandardCharsets.UTF_8);
            if (!text.contains(HOOK_LINE)) {
                throw new IOException("shellgate-pi.js has no line " + HOOK_LINE);
            }
            return text.replace(HOOK_LINE, "const HOOK = " + StubModel.JSON.writeValueAsString(hook));
        }
    }

    @Override
    public Map<String, String> env(StubModel stub) {
        return Map.of("PI_OFFLINE", "1", "PI_SKIP_VERSION_CHECK", "1", "PI_TELEMETRY", "0");
    }

    @Override
    public List<String> argv(Path install, AgentRun run) {
        return List.of(install.resolve("node_modules/.bin/pi").toString(), "--provider", "stub", "--model", "stub-model", "-p",
                run.prompt());
    }
}
