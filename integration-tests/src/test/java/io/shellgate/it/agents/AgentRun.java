package io.shellgate.it.agents;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One run of an agent: the command line its stub model asks the shell tool to run, and optionally a
 * wrapper in front of the agent ({@code shellgate wrap --}), extra environment (a null value removes
 * a variable), a hook command configured in the agent's own settings, the shell a model names where
 * the tool takes one (Codex), more settings for the agent's own settings file, and an strace of
 * every execve.
 */
public record AgentRun(Agent agent, String command, List<String> prefix, Map<String, String> env, String hook,
        String toolShell, String settings, boolean traced, Duration timeout, ToolCall toolCall) {

    /** Another tool the stub model calls instead of the shell tool: its name and its arguments (a JSON object). */
    public record ToolCall(String tool, String arguments) {}

    /** Generous: four agents start slowly on two busy cores; no test asserts on time. */
    public static final Duration DEFAULT_TIMEOUT = Duration.ofMinutes(5);

    public AgentRun {
        prefix = List.copyOf(prefix);
        env = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(env));
    }

    public static AgentRun of(Agent agent, String command) {
        return new AgentRun(agent, command, List.of(), Map.of(), null, null, null, false, DEFAULT_TIMEOUT, null);
    }

    /** Runs the agent as {@code PREFIX... AGENT ARGS}. */
    public AgentRun withPrefix(List<String> argv) {
        return new AgentRun(agent, command, argv, env, hook, toolShell, settings, traced, timeout, toolCall);
    }

    public AgentRun withEnv(String name, String value) {
        Map<String, String> more = new LinkedHashMap<>(env);
        more.put(name, value);
        return new AgentRun(agent, command, prefix, more, hook, toolShell, settings, traced, timeout, toolCall);
    }

    /** Configures {@code hookCommand} (a shell command line) as the agent's pre-tool hook for its shell tool. */
    public AgentRun withHook(String hookCommand) {
        return new AgentRun(agent, command, prefix, env, hookCommand, toolShell, settings, traced, timeout, toolCall);
    }

    public AgentRun withToolShell(String shell) {
        return new AgentRun(agent, command, prefix, env, hook, shell, settings, traced, timeout, toolCall);
    }

    /**
     * More settings: a JSON object merged into Claude Code's, Gemini CLI's or Qwen Code's
     * {@code settings.json}, or TOML appended to Codex's {@code config.toml} (after its tables: start
     * with a table header).
     */
    public AgentRun withSettings(String text) {
        return new AgentRun(agent, command, prefix, env, hook, toolShell, text, traced, timeout, toolCall);
    }

    /** Records every execve of the whole process tree (strace -f), in {@link AgentResult#execs()}. */
    public AgentRun withTrace() {
        return new AgentRun(agent, command, prefix, env, hook, toolShell, settings, true, timeout, toolCall);
    }

    public AgentRun withTimeout(Duration limit) {
        return new AgentRun(agent, command, prefix, env, hook, toolShell, settings, traced, limit, toolCall);
    }

    /** The stub model calls {@code tool} with {@code arguments} (a JSON object) instead of the shell tool. */
    public AgentRun withToolCall(String tool, String arguments) {
        return new AgentRun(agent, command, prefix, env, hook, toolShell, settings, traced, timeout, new ToolCall(tool, arguments));
    }

    /** The prompt the agent gets; the stub decides what happens, the text only has to look real. */
    String prompt() {
        return "Run this shell command and tell me what it printed: " + command;
    }

    List<String> prefixed(List<String> agentArgv) {
        List<String> all = new ArrayList<>(prefix);
        all.addAll(agentArgv);
        return all;
    }
}
