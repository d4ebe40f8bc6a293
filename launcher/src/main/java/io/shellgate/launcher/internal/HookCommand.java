package io.shellgate.launcher.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.shellgate.judge.Dialect;
import io.shellgate.judge.JudgeRequest;
import io.shellgate.launcher.ExitCode;
import io.shellgate.reviewer.EntryPoint;
import io.shellgate.reviewer.GateConfig;
import io.shellgate.reviewer.Gatekeeper;
import io.shellgate.reviewer.Origin;
import io.shellgate.reviewer.People;
import io.shellgate.reviewer.Result;
import io.shellgate.reviewer.Step;
import io.shellgate.rules.Tier;
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
        // Claude Code keeps one shell for the session: a variable the environment does not have may
        // still be set there, so it is unknown, not empty
        JudgeRequest request = new JudgeRequest(command.asText(), Dialect.BASH, cwd, System.getenv(), null, false);
        String session = hook.path("session_id").asText("");
        Origin origin = new Origin(EntryPoint.HOOK, ProcessHandle.current().parent().map(ProcessHandle::pid).orElse(0L),
                "claude-code", session.isEmpty() ? "" : "claude-code-" + session);
        // memory and the LLM may answer; a person is asked by Claude Code itself ("ask")
        Result result;
        try {
            result = Gatekeeper.of(GateConfig.of(System.getenv(), null)).decide(request, origin, People.agentsOwnUser());
        } catch (RuntimeException e) {
            // an internal error must not let the command through: a hook's failure is not a deny
            out.println(decision("deny", "shellgate could not judge the command: " + e));
            return 0;
        }
        String warning = result.warning() == null ? "" : " (" + result.warning() + ")";
        if (result.warning() != null) {
            err.println(result.warning());
        }
        switch (result) {
            case Result.Runs r -> out.println(decision("allow", "shellgate " + (r.step() == Step.JUDGE
                    ? "allow (" + r.verdict().primary().rule() + "): " + r.verdict().primary().message()
                    : "approved (" + r.step().id() + "): " + r.message()) + warning));
            case Result.Refused r when r.tier() == Tier.ASK && r.step() == Step.TIMEOUT ->
                out.println(decision("ask", "shellgate ask (" + r.rule() + "): " + r.verdict().primary().message() + warning));
            case Result.Refused r -> out.println(decision("deny", "shellgate deny (" + r.rule() + "): " + r.message() + warning));
            case Result.PolicyBroken p -> out.println(decision("deny", "shellgate: the policy is invalid: "
                    + String.join("; ", p.problems()) + warning));
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
