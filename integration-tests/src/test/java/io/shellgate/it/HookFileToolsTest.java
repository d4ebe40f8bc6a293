package io.shellgate.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The agents' file tools through {@code shellgate hook AGENT}, with each agent's own hook input:
 * a write to shellgate's own files (policies, audit log, run directory) is refused, a write to a
 * file the judge proves allows from (git's configuration and hooks, shell start-up files) asks
 * (refused with how a person answers, for an agent without an ask), any other write goes on; and
 * the judge server, outside the agent, still writes its audit log.
 */
class HookFileToolsTest extends SandboxTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    /** The input {@code agent} sends before its file tool {@code tool} writes {@code file}. */
    private String input(String agent, String tool, Path file) {
        if (agent.equals("copilot-cli")) {
            // Copilot CLI's own shape: no event name, the tool's arguments in toolArgs
            ObjectNode in = JSON.createObjectNode().put("sessionId", "8f0c2b7e-1111-4222-8333-944455556666")
                    .put("timestamp", 1_796_302_287_591L).put("cwd", box.work.toString()).put("toolName", tool);
            ObjectNode args = in.putObject("toolArgs").put("path", file.toString());
            if (tool.equals("edit")) {
                args.put("old_str", "a").put("new_str", "b");
            } else {
                args.put("file_text", "[[approved]]\ncommand = \"touch x\"\n");
            }
            return in.toString();
        }
        ObjectNode in = JSON.createObjectNode();
        in.put("session_id", "8f0c2b7e-1111-4222-8333-944455556666");
        in.put("cwd", box.work.toString());
        in.put("hook_event_name", switch (agent) {
            case "gemini-cli" -> "BeforeTool";
            case "opencode" -> "tool.execute.before";
            case "pi" -> "tool_call";
            default -> "PreToolUse";
        });
        if (agent.equals("pi")) {
            in.put("tool_name", tool);
            ObjectNode args = in.putObject("tool_input").put("path", file.toString());
            if (tool.equals("edit")) {
                args.putArray("edits").addObject().put("oldText", "a").put("newText", "b");
            } else {
                args.put("content", "[[approved]]\n");
            }
            return in.toString();
        }
        if (agent.equals("opencode")) {
            // OpenCode's own arguments, as its plugin gets them
            in.put("tool_name", tool);
            ObjectNode args = in.putObject("tool_input");
            switch (tool) {
                case "edit" -> args.put("filePath", file.toString()).put("oldString", "a").put("newString", "b");
                case "apply_patch" -> args.put("patchText", "*** Begin Patch\n*** Add File: " + file + "\n+x\n*** End Patch\n");
                default -> args.put("filePath", file.toString()).put("content", "[[approved]]\n");
            }
            return in.toString();
        }
        in.put("tool_name", tool);
        ObjectNode tin = in.putObject("tool_input");
        switch (tool) {
            case "NotebookEdit" -> tin.put("notebook_path", file.toString()).put("new_source", "x = 1");
            case "MultiEdit" -> tin.put("file_path", file.toString()).putArray("edits").addObject()
                    .put("old_string", "a").put("new_string", "b");
            case "Edit", "replace", "edit" -> tin.put("file_path", file.toString()).put("old_string", "a")
                    .put("new_string", "b");
            case "apply_patch" -> tin.put("command", "*** Begin Patch\n*** Update File: README.md\n@@\n-a\n+b\n*** Add File: "
                    + file + "\n+[[approved]]\n+command = \"touch x\"\n*** End Patch\n");
            default -> tin.put("file_path", file.toString()).put("content", "[[approved]]\ncommand = \"touch x\"\n");
        }
        return in.toString();
    }

    @ParameterizedTest(name = "{0} {1} {2}")
    @CsvSource({"claude-code,Write,SERVER", "claude-code,Edit,NO_SERVER", "claude-code,MultiEdit,SERVER",
        "claude-code,NotebookEdit,NO_SERVER", "gemini-cli,write_file,SERVER", "gemini-cli,replace,NO_SERVER",
        "qwen-code,write_file,NO_SERVER", "qwen-code,edit,SERVER", "codex,apply_patch,SERVER", "codex,apply_patch,NO_SERVER",
        "copilot-cli,create,SERVER", "copilot-cli,edit,NO_SERVER", "opencode,write,SERVER", "opencode,edit,NO_SERVER",
        "opencode,apply_patch,SERVER", "pi,write,NO_SERVER", "pi,edit,SERVER"})
    void writesToTheGatesFilesAreRefusedToProofFilesAskedAndOthersLeftToTheAgent(String agent, String tool, Sandbox.Mode mode)
            throws Exception {
        Map<String, String> client = box.client(mode);
        Path state = Files.createDirectories(box.home.resolve(".local/state/shellgate"));
        Path gitHooks = Files.createDirectories(box.work.resolve(".git/hooks"));
        Map<Path, String> expected = new LinkedHashMap<>();
        String refusal = "deny";
        String ask = List.of("claude-code", "qwen-code", "copilot-cli", "pi").contains(agent) ? "ask" : "deny";
        expected.put(box.home.resolve(".config/shellgate/policy.toml"), refusal);
        expected.put(box.work.resolve(".shellgate/policy.toml"), refusal);
        expected.put(state.resolve("audit.jsonl"), refusal);
        expected.put(box.run.resolve("server.token"), refusal);
        // relative to the agent's directory, through a link the agent made
        Files.createSymbolicLink(box.work.resolve("settings"), box.home.resolve(".config"));
        expected.put(Path.of("settings/shellgate/policy.toml"), refusal);
        expected.put(box.work.resolve(".git/config"), ask);
        expected.put(gitHooks.resolve("pre-commit"), ask);
        expected.put(box.work.resolve(".gitattributes"), ask);
        expected.put(box.home.resolve(".bashrc"), ask);
        expected.put(box.home.resolve(".gitconfig"), ask);
        expected.put(box.home.resolve(".claude/shell-snapshots/snapshot-bash-1.sh"), ask);
        // a project's agent settings: the hooks they add run commands no gate sees
        expected.put(box.work.resolve(".claude/settings.json"), ask);
        expected.put(box.work.resolve(".gemini/settings.json"), ask);
        expected.put(box.work.resolve(".github/hooks/hooks.json"), ask);
        expected.put(box.home.resolve(".copilot/hooks/mine.json"), ask);
        // OpenCode's plugins, in the project and the user's config: they run in OpenCode with no gate
        expected.put(box.work.resolve(".opencode/plugin/mine.js"), ask);
        expected.put(box.home.resolve(".config/opencode/plugin/shellgate.js"), ask);
        expected.put(box.home.resolve(".pi/agent/extensions/shellgate.js"), ask);
        expected.put(box.work.resolve(".pi/extensions/mine.ts"), ask);
        expected.put(box.work.resolve("src/main.c"), agent.equals("codex") ? "" : "allow");
        if (mode == Sandbox.Mode.NO_SERVER) {
            // a JVM of its own per call runs the same classification as the server: every kind of answer
            // and the link is asked of it, the whole list of the gate's and proof files of the server
            expected.keySet().retainAll(List.of(box.home.resolve(".config/shellgate/policy.toml"),
                    box.work.resolve(".shellgate/policy.toml"), state.resolve("audit.jsonl"), box.run.resolve("server.token"),
                    Path.of("settings/shellgate/policy.toml"), box.work.resolve(".git/config"), box.home.resolve(".bashrc"),
                    box.work.resolve(".claude/settings.json"), box.work.resolve("src/main.c")));
        }
        for (Map.Entry<Path, String> e : expected.entrySet()) {
            Processes.Result r = box.shellgate(client, Sandbox.bytes(input(agent, tool, e.getKey())), "hook", agent);
            assertThat(r.code()).as(e.getKey() + ": " + r).isZero();
            assertThat(HookAdaptersTest.decision(agent, r)).as(e.getKey() + ": " + r).isEqualTo(e.getValue());
            if (e.getValue().equals("deny")) {
                assertThat(HookAdaptersTest.reason(agent, r)).as(r.toString()).contains("shellgate approvals").contains("a terminal of their own")
                        .contains(e.getKey().toString());
            }
        }

        // the judge outside the agent still writes the audit log
        long before = lines(state.resolve("audit.jsonl"));
        Processes.Result ls = box.shellgate(client, Sandbox.bytes(HookAdaptersTest.input(agent, "ls -la", box.work)), "hook",
                agent);
        assertThat(ls.code()).as(ls.toString()).isZero();
        assertThat(lines(state.resolve("audit.jsonl"))).isEqualTo(before + 1);
    }

    @org.junit.jupiter.api.Test
    void fileToolDecisionsAreLoggedAndTheirAsksReachAWatcher() throws Exception {
        Map<String, String> client = box.client(Sandbox.Mode.SERVER);
        Files.createDirectories(box.work.resolve(".git"));
        Path state = Files.createDirectories(box.home.resolve(".local/state/shellgate"));
        Path policy = box.home.resolve(".config/shellgate/policy.toml");
        Processes.Result refused = box.shellgate(client, Sandbox.bytes(input("gemini-cli", "write_file", policy)), "hook",
                "gemini-cli");
        assertThat(HookAdaptersTest.decision("gemini-cli", refused)).as(refused.toString()).isEqualTo("deny");
        com.fasterxml.jackson.databind.JsonNode denied = JSON.readTree(Files.readAllLines(state.resolve("audit.jsonl")).getLast());
        assertThat(denied.path("rules").get(0).asText()).isEqualTo("gate-file");
        assertThat(denied.path("run").asBoolean(true)).isFalse();
        assertThat(denied.path("cmd").asText()).isEqualTo("write_file " + policy);
        assertThat(denied.path("entry").asText()).isEqualTo("hook");
        // Gemini CLI cannot ask its user: a person watching answers instead, within the agent's time
        box.env.put("SHELLGATE_REVIEW_TIMEOUT_SECONDS", "120");
        client.put("SHELLGATE_REVIEW_TIMEOUT_SECONDS", "120");
        try (ApprovalsWatch watch = ApprovalsWatch.start(box)) {
            java.util.concurrent.CompletableFuture<Processes.Result> asked = java.util.concurrent.CompletableFuture.supplyAsync(
                    () -> {
                        try {
                            return box.shellgate(client, Sandbox.bytes(input("gemini-cli", "write_file",
                                    box.work.resolve(".git/config"))), "hook", "gemini-cli");
                        } catch (Exception e) {
                            throw new IllegalStateException(e);
                        }
                    });
            assertThat(watch.awaitQuestion()).contains("write_file " + box.work.resolve(".git/config"))
                    .contains("(proof-file)");
            assertThat(watch.answer("y")).contains("once");
            Processes.Result approved = asked.get(120, java.util.concurrent.TimeUnit.SECONDS);
            assertThat(HookAdaptersTest.decision("gemini-cli", approved)).as(approved.toString()).isEqualTo("allow");
        }
        com.fasterxml.jackson.databind.JsonNode approvedLine = JSON.readTree(Files.readAllLines(state.resolve("audit.jsonl")).getLast());
        assertThat(approvedLine.path("rules").get(0).asText()).isEqualTo("proof-file");
        assertThat(approvedLine.path("step").asText()).isEqualTo("person");
    }

    private static long lines(Path file) throws Exception {
        return Files.exists(file) ? Files.readAllLines(file).size() : 0;
    }
}
