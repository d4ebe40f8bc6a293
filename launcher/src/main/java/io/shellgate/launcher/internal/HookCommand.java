package io.shellgate.launcher.internal;

import io.shellgate.launcher.internal.cli.ExitCode;
import io.shellgate.launcher.internal.gate.Gatekeepers;
import io.shellgate.launcher.internal.hook.HookAgent;
import io.shellgate.launcher.internal.hook.HookAnswer;
import io.shellgate.launcher.internal.hook.HookGate;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/**
 * {@code shellgate hook AGENT}: a pre-tool hook for an agent's shell tool. It reads the hook's JSON
 * on standard input and answers allow, ask or deny with the reason in that agent's hook format.
 * The launcher script asks the judge server first; this command is its path without one. Input it
 * cannot read is answered deny, never allow.
 */
@Command(name = "hook", mixinStandardHelpOptions = true,
        description = {"A pre-tool hook for an agent's shell and file tools: reads the hook's JSON on standard input,",
            "answers allow, ask or deny in the agent's own format. AGENT: claude-code, gemini-cli, codex, qwen-code,",
            "copilot-cli, opencode, kilo or pi.",
            "File tools: a write to shellgate's own files (policies, audit log, run directory) is refused, a write to",
            "git's configuration and hooks or a shell start-up file asks, any other write is the agent's.",
            "Claude Code (~/.claude/settings.json; \"onFailure\": \"block\" makes a hook that cannot run block the call):",
            "  {\"hooks\": {\"PreToolUse\": [{\"matcher\": \"Bash|Write|Edit|MultiEdit|NotebookEdit\",",
            "    \"hooks\": [{\"type\": \"command\", \"command\": \"/path/to/shellgate-hook claude-code\",",
            "    \"onFailure\": \"block\"}]}]}}",
            "Qwen Code (~/.qwen/settings.json): the same with \"matcher\": \"run_shell_command|write_file|edit|replace\"",
            "and qwen-code.",
            "Gemini CLI (~/.gemini/settings.json):",
            "  {\"hooks\": {\"BeforeTool\": [{\"matcher\": \"run_shell_command|write_file|replace\",",
            "    \"hooks\": [{\"type\": \"command\", \"command\": \"/path/to/shellgate-hook gemini-cli\"}]}]}}",
            "Codex (~/.codex/hooks.json; its matcher is a regular expression, and it runs a hook only once you",
            "trust it in its review):",
            "  {\"hooks\": {\"PreToolUse\": [{\"matcher\": \"^(Bash|apply_patch)$\",",
            "    \"hooks\": [{\"type\": \"command\", \"command\": \"/path/to/shellgate-hook codex\"}]}]}}",
            "GitHub Copilot CLI (~/.copilot/hooks/shellgate.json; it lets a call through when the hook times out):",
            "  {\"version\": 1, \"hooks\": {\"preToolUse\": [{\"type\": \"command\",",
            "    \"bash\": \"/path/to/shellgate-hook copilot-cli\", \"timeoutSec\": 60}]}}",
            "OpenCode: shellgate's plugin (~/.config/opencode/plugin/shellgate.js, from shellgate setup opencode) sends",
            "each tool call here as {\"hook_event_name\": \"tool.execute.before\", \"tool_name\", \"tool_input\"} and gets",
            "Gemini CLI's {\"decision\", \"reason\"}; it refuses the call on anything but allow. Kilo: the same plugin",
            "(~/.config/kilo/plugin/shellgate.js, from shellgate setup kilo), with the agent kilo.",
            "Pi: shellgate's extension (~/.pi/agent/extensions/shellgate.js, from shellgate setup pi) does the same",
            "for Pi's tool_call event; an ask is Pi's own confirmation where it has an interface.",
            "shellgate setup AGENT writes these for you.",
            "shellgate-hook (beside shellgate on Linux, where the build found a C compiler) relays the call without",
            "starting bash; where there is none, use \"bash /path/to/shellgate hook AGENT\": the same answers.",
            "An ask shows Claude Code's, Copilot CLI's or Pi's own dialog; Qwen Code, copilot -p and pi -p refuse it",
            "without a terminal; Gemini CLI, Codex, OpenCode and Kilo get a refusal that says how to approve (Gemini waits",
            "forever for an answer without a terminal, Codex would run the command, an OpenCode plugin cannot ask).",
            "Claude Code: an ask that a specific Bash(...) allow rule in its own settings covers gets no decision in its",
            "default, plan and dontAsk modes, so Claude Code runs it by that rule ([review] agent-allow-rules = false",
            "in your policy turns this off); a deny never does. [review] agent-dialog = true in your own policy leaves",
            "other asks to Claude Code's own dialog as well (default and plan modes, one simple command that Claude Code",
            "would not run unasked as read-only, no blanket rule; see docs/hooks.md)."},
        footer = {"", "Exit code 0 with the agent's answer on standard output; 2 (which every one of these agents takes",
            "as \"block\") when shellgate cannot answer, with the reason on standard error."})
public final class HookCommand implements Callable<Integer> {

    /** The most input a hook call may send; more is refused unread. */
    static final int MAX_INPUT = 1 << 20;

    @Parameters(paramLabel = "AGENT", description = "claude-code, gemini-cli, codex, qwen-code, copilot-cli, opencode, kilo or pi")
    String agent;

    @Spec
    CommandSpec spec;

    private final InputStream input;

    public HookCommand(InputStream input) {
        this.input = input;
    }

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        Optional<HookAgent> which = HookAgent.parse(agent);
        if (which.isEmpty()) {
            err.println("shellgate hook: unknown agent '" + agent + "'; supported: " + HookGate.known());
            return 2;
        }
        HookAnswer answer;
        try {
            byte[] bytes = input.readNBytes(MAX_INPUT + 1);
            answer = bytes.length > MAX_INPUT ? HookAnswer.failed("the hook input is larger than 1 MiB")
                    : new HookGate(new Gatekeepers(null)).answer(which.get(), new String(bytes, StandardCharsets.UTF_8),
                            System.getenv(), Path.of("").toAbsolutePath(),
                            ProcessHandle.current().parent().map(ProcessHandle::pid).orElse(0L));
        } catch (IOException e) {
            answer = HookAnswer.failed("cannot read the hook input: " + e.getMessage());
        }
        out.print(answer.stdout());
        out.flush();
        err.print(answer.stderr());
        err.flush();
        return answer.exit() == 0 ? ExitCode.ALLOW.code() : answer.exit();
    }
}
