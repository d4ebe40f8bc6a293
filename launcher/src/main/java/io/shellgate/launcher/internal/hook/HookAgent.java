package io.shellgate.launcher.internal.hook;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The hook protocols of the agents shellgate answers for: which event and tool names are a shell
 * command, where the command is in the input, and how an answer is written so that the agent
 * acts on it. Each says allow, ask or deny in the agent's own words; an agent without an ask of
 * its own gets a refusal that says how to approve.
 */
public enum HookAgent {
    /** Claude Code's {@code PreToolUse} for its {@code Bash} tool (an ask shows Claude's own dialog). */
    CLAUDE_CODE("claude-code", Set.of("PreToolUse"), Set.of("Bash"), true),
    /**
     * Gemini CLI's {@code BeforeTool} for {@code run_shell_command}: it reads a top-level
     * {@code decision}, and takes exit code 1 as allow-with-warning (only 2 or {@code deny} stops).
     * Its ask waits for a confirmation that never comes without a terminal ({@code gemini -p}
     * hangs), and a hook cannot tell the two apart: an ask is a refusal that says how to approve.
     */
    GEMINI_CLI("gemini-cli", Set.of("BeforeTool"), Set.of("run_shell_command"), false),
    /**
     * Codex's {@code PreToolUse}: its {@code exec_command} reaches hooks as {@code Bash} with
     * {@code tool_input.command}; other shell tools may send an argument vector or
     * {@code tool_input.cmd}. It does not support ask (it would run the command).
     */
    CODEX("codex", Set.of("PreToolUse"), Set.of("Bash", "shell", "local_shell", "exec_command", "container.exec",
            "unified_exec"), false),
    /**
     * Qwen Code's {@code PreToolUse} for {@code run_shell_command}, answered in Claude Code's
     * format (an ask is refused with the reason when it runs without a terminal).
     */
    QWEN_CODE("qwen-code", Set.of("PreToolUse"), Set.of("run_shell_command"), true);

    static final ObjectMapper JSON = new ObjectMapper();

    /** One shell command the agent is about to run. */
    public record Call(String command, List<String> argv, String cwd, String session) {}

    private final String id;
    private final Set<String> events;
    private final Set<String> tools;
    private final boolean asks;

    HookAgent(String id, Set<String> events, Set<String> tools, boolean asks) {
        this.id = id;
        this.events = events;
        this.tools = tools;
        this.asks = asks;
    }

    public String id() {
        return id;
    }

    /** The agent with this id (or a short alias: claude, gemini, qwen); empty for another. */
    public static Optional<HookAgent> parse(String name) {
        String n = name == null ? "" : name;
        for (HookAgent a : values()) {
            if (a.id.equals(n) || a.id.startsWith(n + "-")) {
                return Optional.of(a);
            }
        }
        return Optional.empty();
    }

    /**
     * For an agent that cannot ask its own user: how long the whole review may take (the LLM step, a
     * desktop notice, a person watching with {@code shellgate approvals --watch}), kept below the
     * agent's default hook timeout with room for the relay (Gemini CLI: 60 s, after which it lets
     * the call through; Codex: 600 s). Null for an agent that asks: its review is the LLM step
     * alone, at most {@code ReviewPipeline.MACHINE_STEPS}.
     */
    public java.time.Duration watcherCap() {
        return switch (this) {
            case GEMINI_CLI -> java.time.Duration.ofSeconds(45);
            case CODEX -> java.time.Duration.ofSeconds(540);
            case CLAUDE_CODE, QWEN_CODE -> null;
        };
    }

    /** Whether the agent shows a person its own dialog for an ask. */
    public boolean asks() {
        return asks;
    }

    /**
     * The shell command in a hook input; empty when the call is not a shell command of this agent
     * (another tool or event: not shellgate's to answer).
     *
     * @throws IllegalArgumentException when it is this agent's shell call but has no command
     */
    public Optional<Call> read(JsonNode input) {
        String event = input.path("hook_event_name").asText("");
        String tool = input.path("tool_name").asText("");
        if (!events.contains(event) || !tools.contains(tool)) {
            return Optional.empty();
        }
        JsonNode tin = input.path("tool_input");
        JsonNode command = tin.has("command") ? tin.get("command") : tin.get("cmd");
        String cwd = input.path("cwd").asText("");
        if (tin.path("workdir").isTextual() && tin.path("workdir").asText().startsWith("/")) {
            cwd = tin.path("workdir").asText();
        } else if (tin.path("dir_path").isTextual() && !tin.path("dir_path").asText().isEmpty()) {
            String dir = tin.path("dir_path").asText();
            cwd = dir.startsWith("/") ? dir : cwd + "/" + dir;
        }
        String session = input.path("session_id").asText("");
        if (command != null && command.isTextual()) {
            return Optional.of(new Call(command.asText(), null, cwd, session));
        }
        if (command != null && command.isArray() && !command.isEmpty()) {
            List<String> argv = new java.util.ArrayList<>();
            for (JsonNode w : command) {
                if (!w.isTextual()) {
                    throw new IllegalArgumentException("the " + tool + " call's command holds a word that is not a string");
                }
                argv.add(w.asText());
            }
            return Optional.of(new Call(null, argv, cwd, session));
        }
        throw new IllegalArgumentException("the " + tool + " call has no command");
    }

    /** The answer for a decision, in the agent's hook format. */
    public HookAnswer answer(Outcome outcome, String reason) {
        Outcome said = outcome == Outcome.ASK && !asks ? Outcome.DENY : outcome;
        return switch (this) {
            case GEMINI_CLI -> {
                ObjectNode root = JSON.createObjectNode();
                root.put("decision", said.word());
                root.put("reason", reason);
                yield new HookAnswer(0, root.toString() + "\n", "");
            }
            case CLAUDE_CODE, CODEX, QWEN_CODE -> {
                if (this == CODEX && said == Outcome.ALLOW) {
                    // Codex acts only on deny; saying nothing lets the call go on as it would
                    yield new HookAnswer(0, "", "");
                }
                ObjectNode root = JSON.createObjectNode();
                ObjectNode specific = root.putObject("hookSpecificOutput");
                specific.put("hookEventName", "PreToolUse");
                specific.put("permissionDecision", said.word());
                specific.put("permissionDecisionReason", reason);
                yield new HookAnswer(0, root.toString() + "\n", "");
            }
        };
    }

    /** What shellgate says of a call. */
    public enum Outcome {
        ALLOW("allow"), ASK("ask"), DENY("deny");

        private final String word;

        Outcome(String word) {
            this.word = word;
        }

        String word() {
            return word;
        }
    }
}
