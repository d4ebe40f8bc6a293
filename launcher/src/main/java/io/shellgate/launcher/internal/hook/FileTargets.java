package io.shellgate.launcher.internal.hook;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The files an agent's file tool is about to write, read from its hook input: Claude Code's
 * {@code Write}, {@code Edit}, {@code MultiEdit} and {@code NotebookEdit}, Gemini CLI's and Qwen
 * Code's {@code write_file}, {@code replace} and {@code edit}, Codex's {@code apply_patch} (whose
 * patch text names the files), Copilot CLI's {@code create} and {@code edit}, OpenCode's {@code edit},
 * {@code write} and {@code apply_patch} (Kilo's the same), Pi's {@code edit} and {@code write}.
 */
final class FileTargets {

    private static final Set<String> CLAUDE = Set.of("Write", "Edit", "MultiEdit", "NotebookEdit");
    private static final Set<String> GEMINI = Set.of("write_file", "replace");
    private static final Set<String> QWEN = Set.of("write_file", "replace", "edit");
    private static final Set<String> CODEX = Set.of("apply_patch", "Edit", "Write");
    private static final Set<String> COPILOT = Set.of("create", "edit");
    private static final Set<String> OPENCODE = Set.of("edit", "write", "apply_patch");
    private static final Set<String> PI = Set.of("edit", "write");

    /** The lines of a Codex patch that name a file it adds, changes, deletes or moves to. */
    private static final List<String> PATCH_HEADERS = List.of("*** Add File: ", "*** Update File: ", "*** Delete File: ",
            "*** Move to: ");

    private FileTargets() {}

    /**
     * The paths (as the agent wrote them) a file-tool call writes; empty when the call is no file
     * tool of this agent.
     *
     * @throws IllegalArgumentException when it is one but names no file shellgate can read
     */
    static Optional<List<String>> of(HookAgent agent, JsonNode input) {
        String event = input.path("hook_event_name").asText("");
        String tool = input.path("tool_name").asText("");
        Set<String> tools = switch (agent) {
            case CLAUDE_CODE -> CLAUDE;
            case GEMINI_CLI -> GEMINI;
            case QWEN_CODE -> QWEN;
            case CODEX -> CODEX;
            case COPILOT_CLI -> COPILOT;
            case OPENCODE, KILO -> OPENCODE;
            case PI -> PI;
        };
        String wanted = switch (agent) {
            case GEMINI_CLI -> "BeforeTool";
            case COPILOT_CLI -> "preToolUse";
            case OPENCODE, KILO -> "tool.execute.before";
            case PI -> "tool_call";
            case CLAUDE_CODE, CODEX, QWEN_CODE -> "PreToolUse";
        };
        if (!event.equals(wanted) || !tools.contains(tool)) {
            return Optional.empty();
        }
        JsonNode in = input.path("tool_input");
        List<String> paths = new ArrayList<>();
        for (String field : List.of("file_path", "notebook_path", "path", "filePath")) {
            if (in.path(field).isTextual()) {
                paths.add(in.path(field).asText());
            }
        }
        if ((agent == HookAgent.OPENCODE || agent == HookAgent.KILO) && in.path("patchText").isTextual()) {
            paths.addAll(patchFiles(in.path("patchText").asText()));
        }
        if (agent == HookAgent.CODEX) {
            // the patch may come as the whole input or in one of its fields
            List<JsonNode> texts = new ArrayList<>(List.of(in));
            in.forEach(texts::add);
            for (JsonNode t : texts) {
                if (t.isTextual()) {
                    paths.addAll(patchFiles(t.asText()));
                }
            }
        }
        if (paths.isEmpty() || paths.stream().anyMatch(p -> p.isEmpty() || p.indexOf('\0') >= 0)) {
            throw new IllegalArgumentException("the " + tool + " call names no file shellgate can check");
        }
        return Optional.of(List.copyOf(paths));
    }

    /** The files a Codex patch names (its headers, one a line; leading blanks tolerated as Codex does). */
    static List<String> patchFiles(String patch) {
        List<String> out = new ArrayList<>();
        for (String line : patch.split("\n", -1)) {
            String l = line.strip();
            for (String h : PATCH_HEADERS) {
                if (l.startsWith(h)) {
                    out.add(l.substring(h.length()).strip());
                }
            }
        }
        return out;
    }
}
