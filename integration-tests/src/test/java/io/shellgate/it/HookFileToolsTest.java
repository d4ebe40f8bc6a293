package io.shellgate.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
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
        ObjectNode in = JSON.createObjectNode();
        in.put("session_id", "8f0c2b7e-1111-4222-8333-944455556666");
        in.put("cwd", box.work.toString());
        in.put("hook_event_name", agent.equals("gemini-cli") ? "BeforeTool" : "PreToolUse");
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
        "qwen-code,write_file,NO_SERVER", "qwen-code,edit,SERVER", "codex,apply_patch,SERVER", "codex,apply_patch,NO_SERVER"})
    void writesToTheGatesFilesAreRefusedToProofFilesAskedAndOthersLeftToTheAgent(String agent, String tool, Sandbox.Mode mode)
            throws Exception {
        Map<String, String> client = box.client(mode);
        Path state = Files.createDirectories(box.home.resolve(".local/state/shellgate"));
        Path gitHooks = Files.createDirectories(box.work.resolve(".git/hooks"));
        Map<Path, String> expected = new LinkedHashMap<>();
        String refusal = "deny";
        String ask = agent.equals("claude-code") || agent.equals("qwen-code") ? "ask" : "deny";
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
        expected.put(box.work.resolve("src/main.c"), agent.equals("codex") ? "" : "allow");
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

    private static long lines(Path file) throws Exception {
        return Files.exists(file) ? Files.readAllLines(file).size() : 0;
    }
}
