package io.shellgate.it.agents;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Codex: a Node launcher around a native (Rust) binary. {@code exec} runs one prompt;
 * {@code --dangerously-bypass-approvals-and-sandbox} runs commands without asking and without its
 * own sandbox. The stub is a model provider of its own in {@code ~/.codex/config.toml}; the plugin,
 * app and update features are off, else it calls github.com and chatgpt.com at start. Hooks live in
 * {@code ~/.codex/hooks.json} and run only when trusted: {@code --dangerously-bypass-hook-trust}
 * trusts them for one run.
 */
final class CodexSetup implements AgentSetup {

    static final String TOOL = "exec_command";

    /**
     * Codex 0.169 gives its hooks the name {@code Bash} for {@code exec_command} (and the command in
     * {@code tool_input.command}); a matcher {@code exec_command} never fires. A matcher made only of
     * letters, digits, {@code _} and {@code |} is compared exactly, anything else is a regex.
     */
    static final String HOOK_MATCHER = "^Bash$";

    @Override
    public String shellTool() {
        return TOOL;
    }

    @Override
    public StubModel stub(AgentRun run) throws IOException {
        return new ResponsesStub(run.command(), run.toolShell());
    }

    @Override
    public void configure(Path home, StubModel stub, AgentRun run) throws IOException {
        Path codex = Files.createDirectories(home.resolve(".codex"));
        Files.writeString(codex.resolve("config.toml"), """
                model = "gpt-5-codex"
                model_provider = "stub"
                approval_policy = "never"
                sandbox_mode = "danger-full-access"
                check_for_update_on_startup = false

                [model_providers.stub]
                name = "stub"
                base_url = "%s/v1"
                wire_api = "responses"
                env_key = "CODEX_STUB_API_KEY"

                [analytics]
                enabled = false

                [features]
                plugins = false
                remote_plugin = false
                plugin_sharing = false
                apps = false
                in_app_updates = false
                """.formatted(stub.baseUrl()) + (run.settings() == null ? "" : "\n" + run.settings() + "\n"));
        if (run.hook() != null) {
            ObjectNode file = StubModel.object();
            file.set("hooks", Hooks.claudeStyle("PreToolUse", HOOK_MATCHER, run.hook()));
            Files.writeString(codex.resolve("hooks.json"), file.toPrettyString());
        }
    }

    @Override
    public Map<String, String> env(StubModel stub) {
        return Map.of("CODEX_STUB_API_KEY", "stub-not-a-key");
    }

    @Override
    public List<String> argv(Path install, AgentRun run) {
        List<String> argv = new ArrayList<>(List.of(install.resolve("node_modules/.bin/codex").toString(),
                "exec", "--dangerously-bypass-approvals-and-sandbox", "--skip-git-repo-check"));
        if (run.hook() != null) {
            argv.add("--dangerously-bypass-hook-trust");
        }
        argv.add(run.prompt());
        return argv;
    }
}
