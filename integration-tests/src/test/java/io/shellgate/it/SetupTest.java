package io.shellgate.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** {@code shellgate setup AGENT}: the hook merged into the agent's own settings, run as the agent would run it. */
class SetupTest extends SandboxTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void theHookIsMergedIntoClaudeCodesSettingsKeptOnceAndRemovedAgain() throws Exception {
        Path settings = Files.createDirectories(box.home.resolve(".claude")).resolve("settings.json");
        String mine = """
                {"model": "opus", "hooks": {"PreToolUse": [{"matcher": "Read", "hooks": [{"type": "command", "command": "my-audit"}]}],
                 "Stop": [{"hooks": [{"type": "command", "command": "notify-me"}]}]}}
                """;
        Files.writeString(settings, mine);
        Processes.Result r = box.shellgate("setup", "claude-code");
        assertThat(r.code()).as(r.toString()).isZero();
        assertThat(r.out()).contains("shellgate's hook is in " + settings).contains("the file as it was: " + settings
                + ".shellgate-backup-");
        JsonNode s = JSON.readTree(settings.toFile());
        assertThat(s.path("model").asText()).isEqualTo("opus");
        assertThat(s.path("hooks").path("Stop").toString()).contains("notify-me");
        JsonNode pre = s.path("hooks").path("PreToolUse");
        assertThat(pre).hasSize(2);
        assertThat(pre.get(0).toString()).contains("my-audit");
        JsonNode ours = pre.get(1);
        assertThat(ours.path("matcher").asText()).isEqualTo("Bash|Write|Edit|MultiEdit|NotebookEdit");
        String command = ours.path("hooks").get(0).path("command").asText();
        assertThat(command).endsWith(" claude-code").contains("shellgate");
        assertThat(ours.path("hooks").get(0).path("onFailure").asText()).isEqualTo("block");
        try (Stream<Path> files = Files.list(settings.getParent())) {
            Path backup = files.filter(f -> f.getFileName().toString().startsWith("settings.json.shellgate-backup-"))
                    .findFirst().orElseThrow();
            assertThat(Files.readString(backup)).isEqualTo(mine);
        }

        // the command written is the hook: it answers as the agent would run it
        String input = "{\"hook_event_name\":\"PreToolUse\",\"tool_name\":\"Bash\",\"tool_input\":{\"command\":\"rm -rf ~\"}}";
        Processes.Result hook = Processes.run(List.of("bash", "-c", command), box.env, input, box.work);
        assertThat(hook.code()).as(hook.toString()).isZero();
        assertThat(hook.out()).contains("\"permissionDecision\":\"deny\"").contains("rm-recursive-critical");
        // after a command asked in Claude Code's dialog ran, its PostToolUse tells the audit log so
        JsonNode post = s.path("hooks").path("PostToolUse");
        assertThat(post).hasSize(1);
        assertThat(post.get(0).path("matcher").asText()).isEqualTo("Bash");
        assertThat(post.get(0).path("hooks").get(0).path("command").asText()).isEqualTo(command);
        String asked = "{\"hook_event_name\":\"PreToolUse\",\"session_id\":\"s-1\",\"tool_name\":\"Bash\","
                + "\"tool_input\":{\"command\":\"touch asked-in-dialog\"}}";
        Processes.Result ask = Processes.run(List.of("bash", "-c", command), box.env, asked, box.work);
        assertThat(ask.out()).contains("\"permissionDecision\":\"ask\"");
        Path audit = box.home.resolve(".local/state/shellgate/audit.jsonl");
        JsonNode askLine = JSON.readTree(Files.readAllLines(audit).getLast());
        assertThat(askLine.path("step").asText()).isEqualTo("agent");
        assertThat(askLine.get("run").isNull()).as(askLine.toString()).isTrue();
        Processes.Result ran = Processes.run(List.of("bash", "-c", command), box.env,
                asked.replace("PreToolUse", "PostToolUse"), box.work);
        assertThat(ran.code()).as(ran.toString()).isZero();
        assertThat(ran.out()).isEmpty();
        JsonNode ranLine = JSON.readTree(Files.readAllLines(audit).getLast());
        assertThat(ranLine.path("cmd").asText()).isEqualTo("touch asked-in-dialog");
        assertThat(ranLine.path("run").asBoolean(false)).as(ranLine.toString()).isTrue();
        assertThat(ranLine.path("step").asText()).isEqualTo("agent");

        // again: nothing to change; a dry run prints and changes nothing
        String written = Files.readString(settings);
        assertThat(box.shellgate("setup", "claude-code").out()).contains("nothing to change");
        Processes.Result dry = box.shellgate("setup", "claude-code", "--remove", "--dry-run");
        assertThat(dry.code()).isZero();
        assertThat(dry.out()).contains("my-audit").doesNotContain("shellgate-hook claude-code").doesNotContain(" hook claude-code");
        assertThat(Files.readString(settings)).isEqualTo(written);

        Processes.Result removed = box.shellgate("setup", "claude-code", "--remove");
        assertThat(removed.code()).as(removed.toString()).isZero();
        JsonNode after = JSON.readTree(settings.toFile());
        assertThat(after.path("hooks").path("PreToolUse")).hasSize(1);
        assertThat(after.path("hooks").has("PostToolUse")).isFalse();
        assertThat(after.toString()).contains("my-audit").contains("notify-me").doesNotContain("claude-code");
        assertThat(box.shellgate("setup", "claude-code", "--remove").out()).contains("nothing to remove");
    }

    @Test
    void eachAgentGetsItsOwnEventMatcherAndFile() throws Exception {
        record Want(String agent, String file, String event, String matcher) {}
        for (Want w : List.of(new Want("gemini-cli", ".gemini/settings.json", "BeforeTool", "run_shell_command|write_file|replace"),
                new Want("qwen-code", ".qwen/settings.json", "PreToolUse", "run_shell_command|write_file|edit|replace"),
                new Want("codex", ".codex/hooks.json", "PreToolUse", "^(Bash|apply_patch)$"))) {
            Processes.Result r = box.shellgate("setup", w.agent());
            assertThat(r.code()).as(r.toString()).isZero();
            JsonNode group = JSON.readTree(box.home.resolve(w.file()).toFile()).path("hooks").path(w.event()).get(0);
            assertThat(group.path("matcher").asText()).as(w.agent()).isEqualTo(w.matcher());
            assertThat(group.path("hooks").get(0).path("command").asText()).endsWith(" " + w.agent());
            assertThat(group.path("hooks").get(0).has("onFailure")).isFalse();
        }
    }

    @Test
    void copilotCliGetsItsOwnHookFileWithATimeoutAboveShellgatesAnswer() throws Exception {
        Path hooks = Files.createDirectories(box.home.resolve(".copilot/hooks"));
        Path file = hooks.resolve("shellgate.json");
        // someone's own entry in shellgate's file stays
        Files.writeString(file, "{\"version\": 1, \"hooks\": {\"sessionStart\": [{\"type\": \"command\", \"bash\": \"notify-me\"}],"
                + " \"preToolUse\": [{\"type\": \"command\", \"bash\": \"my-audit\"}]}}");
        Processes.Result r = box.shellgate("setup", "copilot-cli");
        assertThat(r.code()).as(r.toString()).isZero();
        assertThat(r.out()).contains("shellgate's hook is in " + file).contains("lets a call through when its hook times out");
        JsonNode s = JSON.readTree(file.toFile());
        assertThat(s.path("version").asInt()).isEqualTo(1);
        assertThat(s.path("hooks").path("sessionStart").toString()).contains("notify-me");
        JsonNode pre = s.path("hooks").path("preToolUse");
        assertThat(pre).hasSize(2);
        assertThat(pre.get(0).path("bash").asText()).isEqualTo("my-audit");
        JsonNode ours = pre.get(1);
        assertThat(ours.path("type").asText()).isEqualTo("command");
        assertThat(ours.path("timeoutSec").asInt()).isEqualTo(60);
        String command = ours.path("bash").asText();
        assertThat(command).endsWith(" copilot-cli").contains("shellgate");

        // the command written answers Copilot's own input in Copilot's own format
        String input = "{\"sessionId\":\"s\",\"timestamp\":1,\"cwd\":\"" + box.work
                + "\",\"toolName\":\"bash\",\"toolArgs\":{\"command\":\"rm -rf ~\"}}";
        Processes.Result hook = Processes.run(List.of("bash", "-c", command), box.env, input, box.work);
        assertThat(hook.code()).as(hook.toString()).isZero();
        assertThat(JSON.readTree(hook.out()).path("permissionDecision").asText()).isEqualTo("deny");
        assertThat(hook.out()).contains("rm-recursive-critical");

        assertThat(box.shellgate("setup", "copilot-cli").out()).contains("nothing to change");
        assertThat(box.shellgate("setup", "copilot-cli", "--remove").code()).isZero();
        JsonNode after = JSON.readTree(file.toFile());
        assertThat(after.path("hooks").path("preToolUse")).hasSize(1);
        assertThat(after.toString()).contains("my-audit").contains("notify-me").doesNotContain("copilot-cli");

        // --project: the repository's .github/hooks, which Copilot loads from its working directory
        Processes.Result project = Processes.run(List.of(Processes.launcher().toString(), "setup", "copilot-cli", "--project"),
                box.env, "", box.work);
        assertThat(project.code()).as(project.toString()).isZero();
        assertThat(project.out()).contains("the agent can edit its project settings itself");
        assertThat(JSON.readTree(box.work.resolve(".github/hooks/shellgate.json").toFile()).path("hooks").path("preToolUse")
                .get(0).path("bash").asText()).endsWith(" copilot-cli");

        // COPILOT_HOME moves Copilot's folder, and the hook file with it
        Path moved = dir.resolve("copilot-home");
        java.util.Map<String, String> env = new java.util.HashMap<>(box.env);
        env.put("COPILOT_HOME", moved.toString());
        Processes.Result elsewhere = Processes.run(List.of(Processes.launcher().toString(), "setup", "copilot-cli"), env, "", box.work);
        assertThat(elsewhere.code()).as(elsewhere.toString()).isZero();
        assertThat(moved.resolve("hooks/shellgate.json")).exists();

        Files.writeString(file, "{\"version\": 2, \"hooks\": {}}");
        Processes.Result version = box.shellgate("setup", "copilot-cli");
        assertThat(version.code()).isEqualTo(4);
        assertThat(version.err()).contains("\"version\" is 2, not 1");
    }

    @Test
    void openCodeGetsShellgatesPluginWhichNeverReplacesAFileOfSomeoneElse() throws Exception {
        Path plugin = box.home.resolve(".config/opencode/plugin/shellgate.js");
        Processes.Result r = box.shellgate("setup", "opencode");
        assertThat(r.code()).as(r.toString()).isZero();
        assertThat(r.out()).contains("shellgate's plugin is " + plugin);
        String text = Files.readString(plugin);
        assertThat(text).startsWith("// shellgate's plugin for OpenCode").contains("\"tool.execute.before\"")
                .contains("shellgate-hook\",\"opencode\"]").doesNotContain("const HOOK = [\"shellgate-hook\", \"opencode\"]");
        assertThat(box.shellgate("setup", "opencode").out()).contains("nothing to change");
        Processes.Result dry = box.shellgate("setup", "opencode", "--remove", "--dry-run");
        assertThat(dry.out()).contains("would remove " + plugin);
        assertThat(plugin).exists();
        assertThat(box.shellgate("setup", "opencode", "--remove").code()).isZero();
        assertThat(plugin).doesNotExist();
        assertThat(box.shellgate("setup", "opencode", "--remove").out()).contains("nothing to remove");

        // someone else's file of that name stays as it is
        Files.writeString(plugin, "export const Mine = async () => ({})\n");
        Processes.Result foreign = box.shellgate("setup", "opencode");
        assertThat(foreign.code()).isEqualTo(4);
        assertThat(foreign.err()).contains("is not shellgate's plugin");
        assertThat(box.shellgate("setup", "opencode", "--remove").code()).isEqualTo(4);
        assertThat(Files.readString(plugin)).isEqualTo("export const Mine = async () => ({})\n");

        Processes.Result project = box.shellgate("setup", "opencode", "--project");
        assertThat(project.code()).as(project.toString()).isZero();
        assertThat(box.work.resolve(".opencode/plugin/shellgate.js")).exists();
        assertThat(project.out()).contains("the agent can edit its project's plugins itself");
    }

    @Test
    void kiloGetsOpenCodesPluginNamingKiloInItsOwnConfigFolder() throws Exception {
        Path plugin = box.home.resolve(".config/kilo/plugin/shellgate.js");
        Processes.Result dry = box.shellgate("setup", "kilo", "--dry-run");
        assertThat(dry.code()).as(dry.toString()).isZero();
        assertThat(plugin).doesNotExist();
        Processes.Result r = box.shellgate("setup", "kilo");
        assertThat(r.code()).as(r.toString()).isZero();
        assertThat(r.out()).contains("shellgate's plugin is " + plugin);
        String text = Files.readString(plugin);
        assertThat(text).isEqualTo(dry.out()).startsWith("// shellgate's plugin for OpenCode and Kilo")
                .contains("\"tool.execute.before\"").contains("shellgate-hook\",\"kilo\"]").doesNotContain("\"opencode\"]");
        assertThat(box.shellgate("setup", "kilo").out()).contains("nothing to change");
        assertThat(box.shellgate("setup", "kilo", "--remove").code()).isZero();
        assertThat(plugin).doesNotExist();

        Processes.Result project = box.shellgate("setup", "kilo", "--project");
        assertThat(project.code()).as(project.toString()).isZero();
        assertThat(box.work.resolve(".kilo/plugin/shellgate.js")).exists();
        assertThat(project.out()).contains("the agent can edit its project's plugins itself");
    }

    @Test
    void piGetsShellgatesExtensionWhereItsAgentFolderIs() throws Exception {
        Path extension = box.home.resolve(".pi/agent/extensions/shellgate.js");
        Processes.Result r = box.shellgate("setup", "pi");
        assertThat(r.code()).as(r.toString()).isZero();
        assertThat(Files.readString(extension)).startsWith("// shellgate's extension for Pi").contains("\"tool_call\"")
                .contains("shellgate-hook\",\"pi\"]");
        assertThat(box.shellgate("setup", "pi", "--remove").code()).isZero();
        assertThat(extension).doesNotExist();

        // PI_CODING_AGENT_DIR stands for ~/.pi/agent
        Path moved = dir.resolve("pi-agent");
        java.util.Map<String, String> env = new java.util.HashMap<>(box.env);
        env.put("PI_CODING_AGENT_DIR", moved.toString());
        Processes.Result elsewhere = box.shellgate(env, null, "setup", "pi");
        assertThat(elsewhere.code()).as(elsewhere.toString()).isZero();
        assertThat(moved.resolve("extensions/shellgate.js")).exists();
    }

    @Test
    void eachSetupAndRemovalIsRecordedInTheGatesStateNotBesideTheSettings() throws Exception {
        Path settings = Files.createDirectories(box.home.resolve(".claude")).resolve("settings.json");
        Files.writeString(settings, "{\"model\": \"opus\"}\n");
        Processes.Result r = box.shellgate("setup", "claude-code");
        assertThat(r.code()).as(r.toString()).isZero();
        Path log = box.home.resolve(".local/state/shellgate/setup.jsonl");
        assertThat(r.out()).contains("  recorded: " + log);
        List<String> lines = Files.readAllLines(log);
        assertThat(lines).hasSize(1);
        JsonNode setup = JSON.readTree(lines.getFirst());
        assertThat(setup.path("agent").asText()).isEqualTo("claude-code");
        assertThat(setup.path("action").asText()).isEqualTo("setup");
        assertThat(setup.path("file").asText()).isEqualTo(settings.toString());
        assertThat(setup.path("sha256").asText()).isEqualTo(sha256(settings));
        JsonNode written = JSON.readTree(settings.toFile()).path("hooks");
        assertThat(setup.path("entry").path("PreToolUse")).isEqualTo(written.path("PreToolUse"));
        assertThat(setup.path("entry").path("PostToolUse")).isEqualTo(written.path("PostToolUse"));
        Path backup = Path.of(setup.path("backup").asText());
        assertThat(backup.getFileName().toString()).startsWith("settings.json.shellgate-backup-");
        assertThat(Files.readString(backup)).isEqualTo("{\"model\": \"opus\"}\n");
        try (Stream<Path> files = Files.list(settings.getParent())) {
            assertThat(files.map(f -> f.getFileName().toString())).noneMatch(n -> n.contains("jsonl") || n.contains("record"));
        }

        // a dry run records nothing; a removal records the file as it is afterwards
        box.shellgate("setup", "claude-code", "--remove", "--dry-run");
        assertThat(Files.readAllLines(log)).hasSize(1);
        assertThat(box.shellgate("setup", "claude-code", "--remove").code()).isZero();
        JsonNode removed = JSON.readTree(Files.readAllLines(log).getLast());
        assertThat(removed.path("action").asText()).isEqualTo("remove");
        assertThat(removed.path("sha256").asText()).isEqualTo(sha256(settings));
        assertThat(removed.get("entry").isNull()).isTrue();

        // a plugin: the command it runs, and no digest once it is gone
        assertThat(box.shellgate("setup", "pi").code()).isZero();
        Path extension = box.home.resolve(".pi/agent/extensions/shellgate.js");
        JsonNode plugin = JSON.readTree(Files.readAllLines(log).getLast());
        assertThat(plugin.path("agent").asText()).isEqualTo("pi");
        assertThat(plugin.path("entry").path("plugin").asText()).isEqualTo(extension.toString());
        assertThat(plugin.path("entry").path("runs").get(1).asText()).isEqualTo("pi");
        assertThat(plugin.path("sha256").asText()).isEqualTo(sha256(extension));
        assertThat(plugin.get("backup").isNull()).isTrue();
        assertThat(box.shellgate("setup", "pi", "--remove").code()).isZero();
        JsonNode gone = JSON.readTree(Files.readAllLines(log).getLast());
        assertThat(gone.path("action").asText()).isEqualTo("remove");
        assertThat(gone.get("sha256").isNull()).isTrue();
        assertThat(Files.readAllLines(log)).hasSize(4);
    }

    private static String sha256(Path file) throws Exception {
        return java.util.HexFormat.of().formatHex(java.security.MessageDigest.getInstance("SHA-256").digest(Files.readAllBytes(file)));
    }

    @Test
    void badInputIsAClearErrorAndChangesNothing() throws Exception {
        Path settings = Files.createDirectories(box.home.resolve(".gemini")).resolve("settings.json");
        Files.writeString(settings, "{\"hooks\": [");
        Processes.Result broken = box.shellgate("setup", "gemini-cli");
        assertThat(broken.code()).isEqualTo(4);
        assertThat(broken.err()).contains(settings + " is not valid JSON").contains("nothing was changed");
        assertThat(Files.readString(settings)).isEqualTo("{\"hooks\": [");
        Files.writeString(settings, "{\"hooks\": []}");
        assertThat(box.shellgate("setup", "gemini-cli").err()).contains("its \"hooks\" is not a JSON object");
        Processes.Result unknown = box.shellgate("setup", "cursor");
        assertThat(unknown.code()).isEqualTo(2);
        assertThat(unknown.err()).contains("unknown agent 'cursor'");
        Processes.Result codexProject = box.shellgate("setup", "codex", "--project");
        assertThat(codexProject.code()).isEqualTo(2);
        assertThat(codexProject.err()).contains("reads its hooks only from your own settings");
        assertThat(box.work.resolve(".codex")).doesNotExist();
    }
}
