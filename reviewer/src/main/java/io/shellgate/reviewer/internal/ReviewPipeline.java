package io.shellgate.reviewer.internal;

import io.shellgate.judge.Verdict;
import io.shellgate.reviewer.model.Answer;
import io.shellgate.reviewer.model.Decision;
import io.shellgate.reviewer.config.GateConfig;
import io.shellgate.reviewer.model.ReviewRequest;
import io.shellgate.reviewer.model.Reviewer;
import io.shellgate.reviewer.model.Step;
import io.shellgate.reviewer.internal.export.AuditSink;
import io.shellgate.reviewer.internal.export.DecisionClock;
import io.shellgate.reviewer.internal.export.Exports;
import io.shellgate.rules.Approval;
import io.shellgate.rules.Policy;
import io.shellgate.rules.PolicyException;
import io.shellgate.rules.PolicyLoader;
import io.shellgate.rules.Tier;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The steps of review in order (remembered approvals, the LLM reviewer, a person); the first that
 * answers decides, and nobody answering is a refusal. Every decision goes to the audit log.
 */
public final class ReviewPipeline implements Reviewer {

    private final Policy policy;
    private final Map<String, String> env;
    private final ApprovalMatcher approvals;
    private final LlmStep llm;
    private final Path stateDir;
    private final AuditWriter audit;
    private final AuditSink export;
    private final PersonStep people;
    /** Process-wide, so that a reloaded policy (a new pipeline) keeps what sessions approved. */
    private static final Map<String, Set<String>> sessionApprovals = new ConcurrentHashMap<>();

    public ReviewPipeline(Policy policy, Map<String, String> env) {
        this(policy, GateConfig.of(env, null));
    }

    /** The pipeline for {@code policy}, configured by the gate's own configuration alone. */
    public ReviewPipeline(Policy policy, GateConfig config) {
        this.policy = policy;
        this.env = config.env();
        this.approvals = new ApprovalMatcher(policy, env.get("HOME"));
        this.llm = LlmStep.create(policy, env);
        this.stateDir = config.stateDir();
        this.export = Exports.sink(policy.fleet(), env, stateDir);
        this.audit = new AuditWriter(stateDir, export);
        this.people = new PersonStep(stateDir, config.terminalsNotAsked(), DesktopNotice.of(env));
    }

    /** Where this pipeline's decisions are exported besides the log: its policy's {@code [audit.otlp]} and the gate's {@code OTEL_*}. */
    public AuditSink export() {
        return export;
    }

    /** Where this pipeline's decisions are logged. */
    public AuditWriter audit() {
        return audit;
    }

    /** Decides, and logs the decision. */
    @Override
    public Decision review(ReviewRequest r) {
        Decision d = decide(r);
        audit.record(r, d);
        return d;
    }

    /** Decides, without logging: the caller logs it ({@link #audit()}). Never throws: a failure is a refusal. */
    public Decision decide(ReviewRequest r) {
        if (r.verdict().tier() == Tier.ASK) {
            DecisionClock.reviewStarts();
        }
        try {
            return steps(r);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new Decision(false, Step.TIMEOUT, "review was interrupted; not run", r.verdict());
        } catch (RuntimeException e) {
            return new Decision(false, Step.TIMEOUT, "review failed (" + e + "); not run", r.verdict());
        }
    }

    @Override
    public Decision ran(ReviewRequest r, long[] startedAt) {
        Decision d = ranDecision(r);
        audit.record(r, d, startedAt);
        return d;
    }

    /** What the records of starts made on a reused allow say (see {@link #ran}), without logging them. */
    public static Decision ranDecision(ReviewRequest r) {
        Verdict v = r.verdict();
        String reused = "started on an allow " + r.origin().entry().id() + " reused, after asking its file questions again";
        return v.tier() == Tier.ALLOW ? new Decision(true, Step.JUDGE, "read-only (" + reused + ")", v)
                : new Decision(false, Step.JUDGE, "already " + reused + "; judged again now, it is " + v.tier().id() + ": "
                        + v.primary().message(), v);
    }

    /**
     * The most the machine's own steps of a review (the LLM) may take, whatever the LLM's
     * {@code timeout-seconds} says: with a server stalled before it, a door must still refuse
     * within 20 s, well inside every agent's hook timeout (60 s for Gemini CLI and Qwen Code).
     */
    public static final Duration MACHINE_STEPS = Duration.ofSeconds(8);

    private Decision steps(ReviewRequest r) throws InterruptedException {
        Verdict v = r.verdict();
        long start = System.nanoTime();
        switch (v.tier()) {
            case ALLOW -> {
                return new Decision(true, Step.JUDGE, "read-only", v);
            }
            case DENY -> {
                return new Decision(false, Step.JUDGE, v.primary().message(), v);
            }
            case ASK -> {
                // handled below
            }
        }
        String session = r.origin().session();
        // what a person approved for the session counts only where remembered approvals do, and never for a managed ask
        if (!session.isEmpty() && policy.fleet().rememberedApprovals() && !approvals.managedAsk(v)) {
            Path project = ApprovalMatcher.projectOf(r.request());
            for (String line : sessionApprovals.getOrDefault(session, Set.of())) {
                if (ApprovalMatcher.exactCovers(line, r.request(), v, project)) {
                    return new Decision(true, Step.MEMORY, "approved earlier in this session", v);
                }
            }
        }
        Optional<Approval> remembered = approvals.find(r.request(), v, Instant.now());
        if (remembered.isPresent()) {
            Approval a = remembered.get();
            return new Decision(true, Step.MEMORY, "remembered approval " + a.id() + " (" + a.location() + ")", v);
        }
        Duration llmLimit = r.budget() == null || r.budget().compareTo(MACHINE_STEPS) > 0 ? MACHINE_STEPS : r.budget();
        Optional<Decision> byLlm = llm.review(r, llmLimit);
        if (byLlm.isPresent() && byLlm.get().runs() && approvals.managedAsk(v)
                && !policy.fleet().pinnedLlm().contains("may-approve")) {
            // the managed policy's ask rules are the administrator's: an LLM the user configured does not lift them
            byLlm = Optional.empty();
        }
        if (byLlm.isPresent()) {
            return byLlm.get();
        }
        if (!r.waitForPeople()) {
            return new Decision(false, Step.TIMEOUT, "needs review by a person: " + v.primary().message() + llmProblem(), v);
        }
        Decision d = person(r, start);
        return d.step() == Step.TIMEOUT ? new Decision(false, Step.TIMEOUT, d.message() + llmProblem(), v) : d;
    }

    private Decision person(ReviewRequest r, long start) throws InterruptedException {
        Verdict v = r.verdict();
        int seconds = personTimeout();
        if (seconds == 0) {
            return new Decision(false, Step.TIMEOUT, "needs review (" + v.primary().message()
                    + "), and waiting for a person is off (SHELLGATE_REVIEW_TIMEOUT_SECONDS=0)", v);
        }
        if (r.budget() != null) {
            // one budget for the whole review: what the LLM step took is not the person's
            long left = r.budget().minus(Duration.ofNanos(System.nanoTime() - start)).toMillis();
            if (left < 500) {
                return new Decision(false, Step.TIMEOUT, "needed review (" + v.primary().message() + ") and the review's "
                        + r.budget().toSeconds() + " s ran out before a person could be asked", v);
            }
            seconds = (int) Math.min(seconds, Math.max(1, left / 1000));
        }
        return switch (people.ask(r, seconds)) {
            case PersonStep.Outcome.Answered a -> apply(r, a.answer(), a.by());
            case PersonStep.Outcome.Nobody n when n.why().startsWith("nobody answered within")
                    || n.why().startsWith("the client") ->
                new Decision(false, Step.TIMEOUT, "needed review (" + v.primary().message() + ") and " + n.why(), v);
            case PersonStep.Outcome.Nobody n -> new Decision(false, Step.TIMEOUT, "needs review (" + v.primary().message()
                    + "), and nobody can answer: " + n.why() + ". " + howToApprove(r), v);
        };
    }

    /**
     * What a person can do about an ask nobody could answer: the watcher on a terminal of their own, and the line to
     * approve there. No file is named: the agent reads this too, and its file tools could write one.
     */
    private String howToApprove(ReviewRequest r) {
        return "To let it run, start shellgate approvals --watch in a terminal of your own and run it again; there a person"
                + " can approve " + ApprovalWriter.quote(ApprovalMatcher.approvalText(r.request()))
                + " once (y) or for good (s for the session, p for the project; shellgate approvals list shows what is kept)";
    }

    /** A configured LLM reviewer that cannot be used is said with every refusal it might have prevented. */
    private String llmProblem() {
        return llm.problem() == null ? "" : " (the LLM reviewer is not used: " + llm.problem() + ")";
    }

    /** {@code SHELLGATE_REVIEW_TIMEOUT_SECONDS} of this process (0 to 600) beats the policy's setting. */
    private int personTimeout() {
        String own = env.get("SHELLGATE_REVIEW_TIMEOUT_SECONDS");
        if (own != null && own.matches("[0-9]{1,3}")) {
            return Math.min(600, Integer.parseInt(own));
        }
        return policy.review().personTimeoutSeconds();
    }

    private Decision apply(ReviewRequest r, Answer answer, String by) {
        Verdict v = r.verdict();
        switch (answer) {
            case REFUSE -> {
                return new Decision(false, Step.PERSON, "refused by " + by, v);
            }
            case ONCE -> {
                return new Decision(true, Step.PERSON, "approved once by " + by, v);
            }
            case SESSION -> {
                if (!policy.fleet().rememberedApprovals()) {
                    return new Decision(true, Step.PERSON, "approved once by " + by + " (not remembered: the managed policy"
                            + " switched remembered approvals off)", v);
                }
                if (r.origin().session().isEmpty()) {
                    return new Decision(true, Step.PERSON, "approved by " + by + " (this entry point has no session to remember it for)", v);
                }
                sessionApprovals.computeIfAbsent(r.origin().session(), k -> ConcurrentHashMap.newKeySet())
                        .add(ApprovalMatcher.remembered(r.request(), ApprovalMatcher.projectOf(r.request())));
                return new Decision(true, Step.PERSON, "approved by " + by + " for this session", v);
            }
            case PROJECT -> {
                if (!policy.fleet().rememberedApprovals()) {
                    return new Decision(true, Step.PERSON, "approved once by " + by + " (not remembered: the managed policy"
                            + " switched remembered approvals off)", v);
                }
                return new Decision(true, Step.PERSON, "approved by " + by + " for this project; " + rememberForProject(r, by), v);
            }
        }
        throw new IllegalStateException("unreachable");
    }

    private String rememberForProject(ReviewRequest r, String by) {
        Optional<Path> file = PolicyLoader.userPolicyPath(env);
        Optional<Path> projectPolicy = PolicyLoader.projectPolicyPath(r.request().cwd());
        if (file.isEmpty() || projectPolicy.isEmpty()) {
            return "not remembered: no user policy file (HOME is not set)";
        }
        Path root = projectPolicy.get().getParent().getParent();
        Integer days = policy.review().rememberDays();
        Instant expires = days == null ? null : Instant.now().plus(Duration.ofDays(days)).truncatedTo(ChronoUnit.SECONDS);
        String line = ApprovalMatcher.remembered(r.request(), root);
        try {
            String id = ApprovalWriter.appendExact(file.get(), line, root.toString(),
                    by + " (" + System.getProperty("user.name", "?") + ")", env.get("HOME"), expires);
            return "remembered as " + id + " (" + line + ", in " + root + " and below"
                    + (expires == null ? ", until revoked" : ", until " + expires) + ")";
        } catch (IOException | PolicyException | RuntimeException e) {
            return "not remembered: " + e.getMessage();
        }
    }
}
