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
    QWEN_CODE("qwen-code", Set.of("PreToolUse"), Set.of("run_shell_command"), true),
    /**
     * GitHub Copilot CLI's {@code preToolUse} command hook: {@code {"toolName", "toolArgs", "cwd",
     * "sessionId"}} without an event name, read as the others' shape by {@link #normalize}. Its
     * {@code bash} tool runs a command; {@code write_bash} types {@code input} into a shell it
     * started, which is judged as a command line, since what reads it cannot be known. An ask shows
     * Copilot's own permission prompt (in {@code -p} it refuses with the reason). PowerShell is not
     * a language shellgate reads: its tools are refused.
     */
    COPILOT_CLI("copilot-cli", Set.of("preToolUse"), Set.of("bash", "write_bash", "powershell", "write_powershell"), true),
    /**
     * OpenCode's {@code tool.execute.before}, relayed by shellgate's plugin for OpenCode, which sends
     * the plugin hook's tool and arguments in the shape the others share and refuses the call when
     * the answer (Gemini CLI's {@code decision} and {@code reason}) is not allow or does not come. A
     * plugin cannot show OpenCode's permission prompt: an ask is a refusal that says how to approve.
     * Its {@code batch} tool runs other tools without their plugin hooks, so it is refused.
     */
    OPENCODE("opencode", Set.of("tool.execute.before"), Set.of("bash", "batch"), false),
    /**
     * Kilo ({@code @kilocode/cli}, a fork of OpenCode): the same plugin hook and plugin, and one more
     * tool that runs a command, {@code background_process} (its {@code start} action; its other
     * actions run nothing new: {@code restart} runs again what {@code start} ran).
     */
    KILO("kilo", Set.of("tool.execute.before"), Set.of("bash", "batch", "background_process"), false),
    /**
     * Pi's {@code tool_call} event, relayed by shellgate's extension for Pi in the shape the others
     * share; the answer is Gemini CLI's {@code decision} and {@code reason}, and an ask becomes the
     * extension's confirmation in Pi's own interface (without one, as in {@code pi -p}, a refusal).
     */
    PI("pi", Set.of("tool_call"), Set.of("bash"), true);

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

    /** The agent with this id (or a short alias: claude, gemini, qwen, copilot); empty for another. */
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
            // OpenCode waits on a plugin as long as it takes: the cap is how long the agent stands still
            case OPENCODE, KILO -> java.time.Duration.ofSeconds(120);
            case CLAUDE_CODE, QWEN_CODE, COPILOT_CLI, PI -> null;
        };
    }

    /** Whether the agent shows a person its own dialog for an ask. */
    public boolean asks() {
        return asks;
    }

    /**
     * The hook input in the shape the others share ({@code hook_event_name}, {@code tool_name},
     * {@code tool_input}, {@code cwd}, {@code session_id}): Copilot CLI's own fields renamed, its
     * arguments parsed where they come as JSON text; the input itself for the other agents.
     *
     * @throws IllegalArgumentException when Copilot's arguments are neither an object nor JSON text of one
     */
    public JsonNode normalize(JsonNode input) {
        if (this != COPILOT_CLI || !input.has("toolName")) {
            return input;
        }
        ObjectNode out = JSON.createObjectNode();
        out.put("hook_event_name", "preToolUse");
        out.set("tool_name", input.get("toolName"));
        JsonNode args = input.path("toolArgs");
        if (args.isTextual()) {
            try {
                args = JSON.readTree(args.asText());
            } catch (java.io.IOException e) {
                throw new IllegalArgumentException("the " + input.get("toolName").asText() + " call's toolArgs is not JSON");
            }
        }
        if (args == null || !args.isObject()) {
            throw new IllegalArgumentException("the " + input.get("toolName").asText() + " call's toolArgs is not a JSON object");
        }
        out.set("tool_input", args);
        out.set("cwd", input.path("cwd"));
        out.set("session_id", input.path("sessionId"));
        return out;
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
        if (tool.equals("batch")) {
            throw new IllegalArgumentException("the batch tool runs other tools without their plugin hooks, so shellgate"
                    + " cannot judge them; call the tools one at a time");
        }
        if (tool.endsWith("powershell")) {
            throw new IllegalArgumentException("the " + tool + " call is PowerShell, which shellgate does not judge; use bash");
        }
        JsonNode tin = input.path("tool_input");
        if (tool.equals("background_process") && !tin.path("action").asText("").equals("start")) {
            return Optional.empty();
        }
        JsonNode command = tool.equals("write_bash") ? tin.get("input") : tin.has("command") ? tin.get("command") : tin.get("cmd");
        String cwd = input.path("cwd").asText("");
        if (tin.path("workdir").isTextual() && tin.path("workdir").asText().startsWith("/")) {
            cwd = tin.path("workdir").asText();
        } else if (tin.path("workdir").isTextual() && !tin.path("workdir").asText().isEmpty()) {
            // OpenCode's workdir may be relative to the session's directory
            cwd = cwd + "/" + tin.path("workdir").asText();
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
            case GEMINI_CLI, OPENCODE, KILO, PI -> {
                ObjectNode root = JSON.createObjectNode();
                root.put("decision", said.word());
                root.put("reason", reason);
                yield new HookAnswer(0, root.toString() + "\n", "");
            }
            case COPILOT_CLI -> {
                ObjectNode root = JSON.createObjectNode();
                root.put("permissionDecision", said.word());
                root.put("permissionDecisionReason", reason);
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
