package io.shellgate.reviewer;

import io.shellgate.judge.Judge;
import io.shellgate.judge.JudgeRequest;
import io.shellgate.judge.Reason;
import io.shellgate.judge.Span;
import io.shellgate.judge.Verdict;
import io.shellgate.reviewer.config.GateConfig;
import io.shellgate.reviewer.internal.AuditWriter;
import io.shellgate.reviewer.internal.PolicyCache;
import io.shellgate.reviewer.internal.ReviewPipeline;
import io.shellgate.reviewer.internal.export.AuditSink;
import io.shellgate.reviewer.internal.export.Exports;
import io.shellgate.reviewer.model.Decision;
import io.shellgate.reviewer.model.Origin;
import io.shellgate.reviewer.model.Person;
import io.shellgate.reviewer.model.ReviewRequest;
import io.shellgate.reviewer.model.Step;
import io.shellgate.rules.FileFacts;
import io.shellgate.rules.FleetSettings;
import io.shellgate.rules.Policy;
import io.shellgate.rules.PolicyException;
import io.shellgate.rules.Tier;
import java.nio.file.Path;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;

/**
 * The one gate every door goes through ({@code -c} in its own JVM and through the server, the stdin
 * session, the PTY proxy, the hook, the javaagent, the server): finds the policies, judges, reviews
 * an ask (remembered approvals, the LLM reviewer, a person) and writes the audit record, and says
 * what came of it as a {@link Result}. Built once per process from the gate's own configuration
 * ({@link GateConfig}); a request's environment is what the command will see (the {@code PATH} its
 * programs are found on, the variables it expands), never where the policies, approvals, LLM
 * settings or audit log are found.
 */
public final class Gatekeeper {

    private static final int MAX_PIPELINES = 64;

    private final GateConfig config;
    private final AuditWriter audit;
    private final AuditSink gateExport;
    private final Map<Policy, ReviewPipeline> pipelines = new IdentityHashMap<>();

    private Gatekeeper(GateConfig config) {
        this.config = config;
        // a refusal made before any policy could be read is exported as the gate's own OTEL_* variables say
        this.gateExport = Exports.sink(FleetSettings.NONE, config.env(), config.stateDir());
        this.audit = new AuditWriter(config.stateDir(), gateExport);
    }

    /** The gate of a process with this configuration. */
    public static Gatekeeper of(GateConfig config) {
        return new Gatekeeper(config);
    }

    public GateConfig config() {
        return config;
    }

    /**
     * Starts the export of this gate's audit records for commands in {@code cwd} before any decision:
     * in a process that ships (the judge server), the records other processes queued on disk go out
     * from now on, within seconds, not only after this process's own next decision. Does nothing
     * where no OTLP endpoint is configured; a policy that cannot be read leaves the gate's own.
     */
    public void startExport(Path cwd) {
        try {
            pipeline(load(cwd).policy());
        } catch (PolicyException | RuntimeException e) {
            // the gate's own export (its OTEL_* variables) is already running; a decision will say what is wrong
        }
    }

    /** The policy in effect for a command in {@code cwd} (its settings choose the shell, for one). */
    public Policy policy(Path cwd) throws PolicyException {
        return load(cwd).policy();
    }

    /**
     * The judge of the policy in effect for commands in {@code cwd}, for a caller that judges many
     * lines alone with it ({@code check --batch} through the judge server): nothing reviewed, nothing logged.
     */
    public Judge judgeFor(Path cwd) throws PolicyException {
        return load(cwd).judge();
    }

    /** The judge's verdict alone: nothing reviewed, nothing logged (for {@code check} and judge-only requests). */
    public Verdict judge(JudgeRequest request) throws PolicyException {
        JudgeRequest r = withHome(request);
        return load(r.cwd()).judge().judge(r);
    }

    /**
     * The request as the judge sees it: a command whose environment has no {@code HOME} (a session
     * that ran {@code unset HOME}, a child given no environment) still has a home, the user's, as
     * the shell's {@code ~} does then (from the password database); else the policy's {@code ~/}
     * paths (the user's sensitive files) would match nothing for it.
     */
    private JudgeRequest withHome(JudgeRequest r) {
        String home = config.env().get("HOME");
        if (r.env().containsKey("HOME") || home == null) {
            return r;
        }
        Map<String, String> env = new java.util.HashMap<>(r.env());
        env.put("HOME", home);
        return new JudgeRequest(r.argv() == null ? r.command() : null, r.dialect(), r.cwd(), env, r.positional(),
                r.freshShell(), r.argv());
    }

    /** Decides on a command line for a client that waits as long as the review takes. */
    public Result decide(JudgeRequest request, Origin origin, Person person) {
        return decide(request, origin, person, null);
    }

    /**
     * Decides whether {@code request} runs, and logs the decision.
     *
     * @param person who can answer at the door ({@link People#terminal}, the PTY's prompt), {@link
     *     People#none()}, or {@link People#agentsOwnUser()} when the door's agent asks its own user;
     *     whoever watches with {@code shellgate approvals --watch} is always asked too
     * @param clientGone true once the client stopped waiting (a person's review ends then); may be null
     */
    public Result decide(JudgeRequest given, Origin origin, Person person, BooleanSupplier clientGone) {
        return decide(given, null, origin, person, clientGone);
    }

    /**
     * As {@link #decide(JudgeRequest, Origin, Person, BooleanSupplier)}, with the verdict already
     * reached when {@code verdict} is not null (an agent's start-up probe, recognised in its exact
     * form by {@link io.shellgate.judge.Envelopes}): it is reviewed and logged as any other.
     */
    public Result decide(JudgeRequest given, Verdict verdict, Origin origin, Person person, BooleanSupplier clientGone) {
        return decide(given, verdict, origin, person, clientGone, null);
    }

    /**
     * As {@link #decide(JudgeRequest, Verdict, Origin, Person, BooleanSupplier)}, telling {@code
     * progress} before each step of the review that makes the client wait (see {@link
     * ReviewRequest#progress}); null tells nobody.
     */
    public Result decide(JudgeRequest given, Verdict verdict, Origin origin, Person person, BooleanSupplier clientGone,
            ReviewRequest.Progress progress) {
        JudgeRequest request = withHome(given);
        if (config.stateDir() == null) {
            return new Result.Refused(Tier.DENY, "audit-unavailable", "there is nowhere to write the audit log: neither"
                    + " SHELLGATE_STATE_DIR, XDG_STATE_HOME nor HOME is set for shellgate; set one of them", whole(request),
                    Step.GATE, null, null);
        }
        PolicyCache.Loaded loaded;
        try {
            loaded = load(request.cwd());
        } catch (PolicyException e) {
            String problem = audit.recordRefusal(request, origin, "policy-error", "the policy cannot be used: "
                    + String.join("; ", e.problems()));
            return new Result.PolicyBroken(e.problems(), warning(problem));
        }
        Verdict v = verdict;
        try {
            if (v == null) {
                v = loaded.judge().judge(request);
            }
        } catch (RuntimeException e) {
            String message = "the command could not be judged: " + e;
            String problem = audit.recordRefusal(request, origin, "judge-error", message);
            return new Result.Refused(Tier.DENY, "judge-error", message, whole(request), Step.JUDGE, null, warning(problem));
        }
        boolean handBack = People.isAgentsOwnUser(person);
        java.time.Duration cap = People.watcherCap(person);
        ReviewRequest r = new ReviewRequest(request, v, origin, handBack || cap != null ? null : person, !handBack, clientGone,
                cap, progress);
        ReviewPipeline pipeline = pipeline(loaded.policy());
        Decision d = pipeline.decide(r);
        if (handBack && !d.runs() && d.step() == Step.TIMEOUT && v.tier() == Tier.ASK) {
            // the agent asks its user in its own dialog: the gate does not know the answer yet
            AgentRules rules = People.agentRules(person);
            String rule = rules != null && loaded.policy().review().agentAllowRules() ? rules.covering(request) : null;
            String dialog = rule == null && rules != null && loaded.policy().review().agentDialog()
                    ? rules.ownDialog(request, v) : null;
            d = new Decision(false, Step.AGENT, rule != null
                    ? "left to the agent's own allow rule " + rule + " (" + v.primary().message() + ")"
                    : dialog != null ? "left to the agent's own dialog, " + dialog + " (" + v.primary().message() + ")"
                    : "asked in the agent's own dialog (" + v.primary().message() + ")", v);
        }
        String problem = audit.record(r, d, pipeline.export());
        if (problem != null && loaded.policy().audit().required()) {
            return new Result.Refused(Tier.DENY, "audit-required", "the audit log cannot be written (" + problem
                    + "), and [audit] required = true refuses every command until it can", whole(request), Step.GATE, v, null);
        }
        if (d.runs()) {
            return new Result.Runs(v, d.step(), d.message(), warning(problem));
        }
        Reason primary = v.primary();
        String message = v.tier() == Tier.ASK && d.step() != Step.JUDGE ? d.message() : primary.message();
        return new Result.Refused(v.tier(), primary.rule(), message, primary.span(), d.step(), v, warning(problem));
    }

    /**
     * Logs what an agent reports after running a command its hook handed to the agent's own dialog (Claude Code's
     * PostToolUse): the command ran, so its user said yes there. Only an ask is logged (an allow was logged as run
     * when it was decided); a command the judge would refuse outright is logged as reported but not allowed.
     *
     * @return the warning when it could not be logged, else null
     */
    public String ranAfterTheAgentAsked(JudgeRequest given, Origin origin) {
        JudgeRequest request = withHome(given);
        PolicyCache.Loaded loaded;
        Verdict v;
        try {
            loaded = load(request.cwd());
            v = loaded.judge().judge(request);
        } catch (PolicyException | RuntimeException e) {
            return null;
        }
        if (v.tier() == Tier.ALLOW || config.stateDir() == null) {
            return null;
        }
        ReviewRequest r = new ReviewRequest(request, v, origin, null, false, null, null, null);
        Decision d = v.tier() == Tier.ASK
                ? new Decision(true, Step.AGENT,
                        "ran after the agent's own dialog (or by its user's allow rule there): its user approved it", v)
                : new Decision(false, Step.AGENT, "the agent reports that it ran, although the judge refuses it: "
                        + v.primary().message(), v);
        return warning(audit.record(r, d, pipeline(loaded.policy()).export()));
    }

    /**
     * Runs an asked line that the door knows a person typed for themselves (at the guarded shell: a change to the
     * shell's own state, a pager or an editor on a file that is not a secret), logged as the person's step with
     * {@code why}. A verdict that is not an ask is decided as any other.
     */
    public Result typedByPerson(JudgeRequest given, Verdict verdict, Origin origin, String why) {
        if (verdict.tier() != Tier.ASK || config.stateDir() == null) {
            return decide(given, verdict, origin, People.none(), null);
        }
        JudgeRequest request = withHome(given);
        PolicyCache.Loaded loaded;
        try {
            loaded = load(request.cwd());
        } catch (PolicyException e) {
            return decide(given, verdict, origin, People.none(), null);
        }
        ReviewRequest r = new ReviewRequest(request, verdict, origin, null, false, null, null, null);
        ReviewPipeline pipeline = pipeline(loaded.policy());
        Decision d = new Decision(true, Step.PERSON, why, verdict);
        String problem = audit.record(r, d, pipeline.export());
        if (problem != null && loaded.policy().audit().required()) {
            return new Result.Refused(Tier.DENY, "audit-required", "the audit log cannot be written (" + problem
                    + "), and [audit] required = true refuses every command until it can", whole(request), Step.GATE,
                    verdict, null);
        }
        return new Result.Runs(verdict, Step.PERSON, why, warning(problem));
    }

    /**
     * Logs the starts a client made on an allow it reused ({@code ran} in docs/protocol.md), once
     * per time in {@code times}; {@code verdict} is the allow they were made on, or null to judge
     * the request now. Returns the warning when they could not be logged, else null.
     */
    public String ran(JudgeRequest given, Verdict verdict, Origin origin, long[] times) {
        JudgeRequest request = withHome(given);
        Verdict v = verdict;
        if (v == null) {
            try {
                v = judge(request);
            } catch (PolicyException | RuntimeException e) {
                return warning(audit.recordRefusal(request, origin, "policy-error", "started on a reused allow; it cannot"
                        + " be judged again now: " + e.getMessage()));
            }
        }
        ReviewRequest r = new ReviewRequest(request, v, origin, null);
        AuditSink export;
        try {
            export = pipeline(load(request.cwd()).policy()).export();
        } catch (PolicyException e) {
            export = gateExport;
        }
        return warning(audit.record(r, ReviewPipeline.ranDecision(r), times, export));
    }

    /**
     * The file questions, with their answers, that an allow the judge reached on its own for
     * {@code request} rests on (the policies' files, then the judge's): a client may reuse the
     * allow while each gets the same answer. Null when the allow cannot be reused.
     */
    public List<FileFacts.Fact> facts(JudgeRequest given) {
        JudgeRequest request = withHome(given);
        try {
            return PolicyCache.facts(request.cwd(), config.env(), config.explicitPolicy(), load(request.cwd()), request);
        } catch (PolicyException e) {
            return null;
        }
    }

    private PolicyCache.Loaded load(Path cwd) throws PolicyException {
        return PolicyCache.load(cwd, config.env(), config.explicitPolicy());
    }

    private ReviewPipeline pipeline(Policy policy) {
        synchronized (pipelines) {
            if (pipelines.size() >= MAX_PIPELINES && !pipelines.containsKey(policy)) {
                pipelines.clear();
            }
            return pipelines.computeIfAbsent(policy, p -> new ReviewPipeline(p, config));
        }
    }

    private static Span whole(JudgeRequest request) {
        return new Span(0, request.command().length());
    }

    private static String warning(String problem) {
        return problem == null ? null : "shellgate: warning: this decision is not in the audit log: " + problem;
    }
}
