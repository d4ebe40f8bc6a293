package io.shellgate.launcher.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.shellgate.judge.Dialect;
import io.shellgate.judge.JudgeRequest;
import io.shellgate.judge.Verdict;
import io.shellgate.reviewer.Gates;
import io.shellgate.reviewer.Decision;
import io.shellgate.reviewer.EntryPoint;
import io.shellgate.reviewer.Origin;
import io.shellgate.reviewer.ReviewRequest;
import io.shellgate.reviewer.Step;
import io.shellgate.rules.Tier;
import io.shellgate.launcher.ExitCode;
import io.shellgate.launcher.internal.server.JudgeProvider;
import io.shellgate.rules.PolicyException;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/**
 * {@code shellgate hook claude-code}: a Claude Code {@code PreToolUse} hook for the Bash tool.
 * It reads the hook's JSON on standard input and answers allow, ask or deny with the reason in
 * Claude Code's hook output format. Input it cannot read is answered deny, never allow.
 */
@Command(name = "hook", mixinStandardHelpOptions = true,
        description = {"Agent hook adapters. claude-code: a PreToolUse hook for Claude Code's Bash tool.",
            "Settings (~/.claude/settings.json):",
            "  {\"hooks\": {\"PreToolUse\": [{\"matcher\": \"Bash\",",
            "    \"hooks\": [{\"type\": \"command\", \"command\": \"/path/to/shellgate hook claude-code\"}]}]}}"},
        footer = {"", "Exit code 0 with a JSON decision on standard output; 2 for an unknown agent."})
public final class HookCommand implements Callable<Integer> {

    @Parameters(paramLabel = "AGENT", description = "claude-code")
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
        if (!"claude-code".equals(agent)) {
            err.println("shellgate hook: unknown agent '" + agent + "'; supported: claude-code");
            return ExitCode.USAGE.code();
        }
        JsonNode hook;
        try {
            hook = VerdictJson.MAPPER.readTree(input);
        } catch (IOException e) {
            out.println(decision("deny", "shellgate could not read the hook input: " + e.getMessage()));
            return 0;
        }
        if (hook == null || !hook.isObject()) {
            out.println(decision("deny", "shellgate: the hook input is not a JSON object"));
            return 0;
        }
        if (!"Bash".equals(hook.path("tool_name").asText())) {
            // not ours: say nothing, and Claude Code decides as usual
            return 0;
        }
        JsonNode command = hook.path("tool_input").path("command");
        if (!command.isTextual()) {
            out.println(decision("deny", "shellgate: the Bash tool input has no command"));
            return 0;
        }
        String cwdText = hook.path("cwd").asText("");
        Path cwd = cwdText.startsWith("/") && Files.isDirectory(Path.of(cwdText)) ? Path.of(cwdText) : Path.of("").toAbsolutePath();
        try {
            Gates.Gate loaded = new JudgeProvider(null).load(cwd, System.getenv());
            // Claude Code keeps one shell for the session: a variable the environment does not
            // have may still be set there, so it is unknown, not empty
            JudgeRequest request = new JudgeRequest(command.asText(), Dialect.BASH, cwd, System.getenv(), null, false);
            Verdict v = loaded.judge().judge(request);
            String session = hook.path("session_id").asText("");
            // memory and the LLM may answer; a person is asked by Claude Code itself ("ask")
            Decision d = loaded.reviewer().review(new ReviewRequest(request, v,
                    new Origin(EntryPoint.HOOK, ProcessHandle.current().parent().map(ProcessHandle::pid).orElse(0L),
                            "claude-code", session.isEmpty() ? "" : "claude-code-" + session), null, false));
            var r = v.primary();
            if (d.runs()) {
                out.println(decision("allow", "shellgate " + (d.step() == Step.JUDGE ? "allow (" + r.rule() + "): " + r.message()
                        : "approved (" + d.step().id() + "): " + d.message())));
            } else if (v.tier() == Tier.ASK && d.step() == Step.TIMEOUT) {
                out.println(decision("ask", "shellgate ask (" + r.rule() + "): " + r.message()));
            } else {
                out.println(decision("deny", "shellgate deny (" + r.rule() + "): "
                        + (v.tier() == Tier.ASK ? d.message() : r.message())));
            }
        } catch (PolicyException e) {
            out.println(decision("deny", "shellgate: the policy is invalid: " + String.join("; ", e.problems())));
        } catch (RuntimeException e) {
            // an internal error must not let the command through: a hook's failure is not a deny
            out.println(decision("deny", "shellgate could not judge the command: " + e));
        }
        return 0;
    }

    static String decision(String tier, String reason) {
        ObjectNode root = VerdictJson.MAPPER.createObjectNode();
        ObjectNode specific = root.putObject("hookSpecificOutput");
        specific.put("hookEventName", "PreToolUse");
        specific.put("permissionDecision", tier);
        specific.put("permissionDecisionReason", reason);
        return root.toString();
    }
}
