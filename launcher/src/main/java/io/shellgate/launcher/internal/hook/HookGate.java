package io.shellgate.launcher.internal.hook;

import com.fasterxml.jackson.databind.JsonNode;
import io.shellgate.judge.Dialect;
import io.shellgate.judge.JudgeRequest;
import io.shellgate.judge.Verdict;
import io.shellgate.launcher.internal.gate.Gatekeepers;
import io.shellgate.reviewer.model.EntryPoint;
import io.shellgate.reviewer.model.Origin;
import io.shellgate.reviewer.People;
import io.shellgate.reviewer.Result;
import io.shellgate.reviewer.model.Step;
import io.shellgate.rules.Tier;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * Answers one agent hook call: reads the agent's input, judges the shell command in it, lets the
 * review's memory and LLM answer an ask, and writes the answer in the agent's format. Used by
 * {@code shellgate hook AGENT} in its own JVM and by the judge server. Input it cannot read, a
 * broken policy and any failure are refusals, never a silent allow.
 */
public final class HookGate {

    private final Gatekeepers gates;

    /** @param gates the gates by configuration: the hook's own environment is its gate's */
    public HookGate(Gatekeepers gates) {
        this.gates = gates;
    }

    /**
     * @param input the hook's standard input
     * @param env the hook process's environment (the agent's: what the command will see)
     * @param processCwd the hook process's directory, used when the input names none
     * @param caller the process that called the hook (the agent), for the audit log
     */
    public HookAnswer answer(HookAgent agent, String input, Map<String, String> env, Path processCwd, long caller) {
        return answer(agent, input, env, processCwd, caller, null, null);
    }

    /**
     * As {@link #answer(HookAgent, String, Map, Path, long)} for a client that may go away before the
     * answer ({@code clientGone}, may be null) and hears which review step it waits on ({@code progress},
     * may be null).
     */
    public HookAnswer answer(HookAgent agent, String input, Map<String, String> env, Path processCwd, long caller,
            java.util.function.BooleanSupplier clientGone, io.shellgate.reviewer.model.ReviewRequest.Progress progress) {
        JsonNode hook;
        try {
            hook = HookAgent.JSON.readTree(input);
        } catch (IOException e) {
            return agent.answer(HookAgent.Outcome.DENY, "shellgate could not read the hook input: " + e.getMessage());
        }
        if (hook == null || !hook.isObject()) {
            return agent.answer(HookAgent.Outcome.DENY, "shellgate: the hook input is not a JSON object");
        }
        try {
            hook = agent.normalize(hook);
        } catch (IllegalArgumentException e) {
            return agent.answer(HookAgent.Outcome.DENY, "shellgate: " + e.getMessage());
        }
        if (agent == HookAgent.CLAUDE_CODE && "PostToolUse".equals(hook.path("hook_event_name").asText(""))) {
            return afterTheTool(agent, hook, env, processCwd, caller);
        }
        Optional<FileToolGate.Call> file = FileToolGate.judge(agent, hook, env, processCwd(hook, processCwd));
        if (file.isPresent()) {
            switch (file.get()) {
                case FileToolGate.Call.Unreadable u -> {
                    return u.refusal();
                }
                case FileToolGate.Call.Write w -> {
                    // decided and logged as a command would be: memory, the LLM and a person may answer an ask
                    JudgeRequest request = new JudgeRequest(w.line(), Dialect.BASH, processCwd(hook, processCwd), env, null, false);
                    return decided(agent, request, w.verdict(), origin(agent, hook.path("session_id").asText(""), caller),
                            env, null, clientGone, progress);
                }
            }
        }
        Optional<HookAgent.Call> call;
        try {
            call = agent.read(hook);
        } catch (IllegalArgumentException e) {
            return agent.answer(HookAgent.Outcome.DENY, "shellgate: " + e.getMessage());
        }
        if (call.isEmpty()) {
            // not a shell command: not shellgate's to answer, and the agent decides as usual
            return new HookAnswer(0, "", "");
        }
        HookAgent.Call c = call.get();
        Path cwd = c.cwd().startsWith("/") && Files.isDirectory(Path.of(c.cwd())) ? Path.of(c.cwd()).normalize() : processCwd;
        String command = c.command() != null ? c.command()
                : c.argv().stream().map(HookGate::shellWord).collect(Collectors.joining(" "));
        // the agent's shell may keep state between calls: a variable the environment does not have
        // may still be set there, so it is unknown, not empty
        JudgeRequest request = new JudgeRequest(command, Dialect.BASH, cwd, env, null, false);
        // Claude Code's own allow rules for this command may decide an ask instead of its dialog (see ClaudeRules)
        ClaudeRules rules = agent == HookAgent.CLAUDE_CODE && c.command() != null ? ClaudeRules.forCall(hook, env, cwd) : null;
        return decided(agent, request, null, origin(agent, c.session(), caller), env, rules, clientGone, progress);
    }

    /**
     * Claude Code's PostToolUse for its Bash tool: the command ran. For one this hook handed to Claude Code's own
     * dialog, the audit log now says that it ran (its user said yes there). Nothing is answered: the tool has run.
     */
    private HookAnswer afterTheTool(HookAgent agent, JsonNode hook, Map<String, String> env, Path processCwd, long caller) {
        if (!"Bash".equals(hook.path("tool_name").asText("")) || !hook.path("tool_input").path("command").isTextual()) {
            return new HookAnswer(0, "", "");
        }
        Path cwd = processCwd(hook, processCwd);
        JudgeRequest request = new JudgeRequest(hook.path("tool_input").path("command").asText(), Dialect.BASH, cwd, env,
                null, false);
        String warning;
        try {
            warning = gates.forEnvironment(env).ranAfterTheAgentAsked(request,
                    origin(agent, hook.path("session_id").asText(""), caller));
        } catch (RuntimeException e) {
            warning = "shellgate: the command's run could not be logged: " + e;
        }
        return new HookAnswer(0, "", warning == null ? "" : warning + "\n");
    }

    private static Origin origin(HookAgent agent, String session, long caller) {
        return new Origin(EntryPoint.HOOK, caller, agent.id(), session.isEmpty() ? "" : agent.id() + "-" + session);
    }

    /**
     * Decides on a command line (or a file tool's write, with its {@code verdict} given) through the gate, and writes
     * the answer in the agent's format.
     */
    private HookAnswer decided(HookAgent agent, JudgeRequest request, Verdict verdict, Origin origin,
            Map<String, String> env, ClaudeRules rules, java.util.function.BooleanSupplier clientGone,
            io.shellgate.reviewer.model.ReviewRequest.Progress progress) {
        String command = request.command();
        Result result;
        try {
            // the hook's environment is the agent's, the one its hook was started with: the gate's
            // configuration; memory and the LLM may answer, then a person: the agent's own dialog where
            // it has one, else whoever watches with shellgate approvals, within the agent's hook timeout
            result = gates.forEnvironment(env).decide(request, verdict, origin,
                    agent.asks() ? People.agentsOwnUser(rules) : People.watchersWithin(agent.watcherCap()), clientGone, progress);
        } catch (RuntimeException e) {
            return agent.answer(HookAgent.Outcome.DENY, "shellgate: refused (judge-error): the command could not be judged: " + e);
        }
        String warning = result.warning() == null ? "" : " (" + result.warning() + ")";
        if (result instanceof Result.Refused r && r.tier() == Tier.ASK && r.step() == Step.AGENT && rules != null
                && (rules.found() != null || rules.leftToDialog())) {
            // no decision: Claude Code decides by its user's own rule, which covers this command (the audit says which),
            // or asks in its own dialog, which the policy opted into
            return new HookAnswer(0, "", result.warning() == null ? "" : result.warning() + "\n");
        }
        HookAnswer answer = switch (result) {
            case Result.Runs r -> agent.answer(HookAgent.Outcome.ALLOW, "shellgate " + (r.step() == Step.JUDGE
                    ? "allow (" + r.verdict().primary().rule() + "): " + r.verdict().primary().message()
                    : "approved (" + r.step().id() + "): " + r.message()) + warning);
            case Result.Refused r when r.tier() == Tier.ASK && (r.step() == Step.TIMEOUT || r.step() == Step.AGENT) -> agent.asks()
                    ? agent.answer(HookAgent.Outcome.ASK, "shellgate ask (" + r.rule() + "): " + r.verdict().primary().message()
                            + warning)
                    : agent.answer(HookAgent.Outcome.DENY, "shellgate: refused (" + r.rule() + "): " + r.message() + ". "
                            + howToApprove(command) + warning);
            case Result.Refused r -> agent.answer(HookAgent.Outcome.DENY, r.line() + warning);
            case Result.PolicyBroken p -> agent.answer(HookAgent.Outcome.DENY, p.line() + warning);
        };
        if (result.warning() == null) {
            return answer;
        }
        // a decision that could not be logged is said on the hook's standard error as well
        return new HookAnswer(answer.exit(), answer.stdout(), answer.stderr() + result.warning() + "\n");
    }

    /**
     * For an agent that cannot ask: what a person does to let this exact command run. It names no
     * file: the agent's file tools could write one.
     */
    static String howToApprove(String command) {
        return "To let " + HookAgent.JSON.valueToTree(command) + " run, a person starts shellgate approvals --watch in a"
                + " terminal of their own, outside the agent, and answers when the agent runs it again";
    }

    /** The directory the hook input names, when it is one; else the hook process's. */
    private static Path processCwd(JsonNode hook, Path processCwd) {
        String named = hook.path("cwd").asText("");
        return named.startsWith("/") && Files.isDirectory(Path.of(named)) ? Path.of(named).normalize() : processCwd;
    }

    /** A word of a shell command line: as it is when plain, else in single quotes. */
    public static String shellWord(String word) {
        boolean plain = !word.isEmpty() && word.chars().allMatch(ch -> ch < 128
                && (Character.isLetterOrDigit(ch) || "_@%+=:,./-".indexOf(ch) >= 0));
        return plain ? word : "'" + word.replace("'", "'\\''") + "'";
    }

    /** The agents shellgate answers hooks for, for messages. */
    public static String known() {
        return List.of(HookAgent.values()).stream().map(HookAgent::id).collect(Collectors.joining(", "));
    }
}
