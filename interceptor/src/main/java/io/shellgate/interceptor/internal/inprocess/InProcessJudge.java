package io.shellgate.interceptor.internal.inprocess;

import io.shellgate.judge.Dialect;
import io.shellgate.judge.JudgeRequest;
import io.shellgate.judge.Reason;
import io.shellgate.judge.Verdict;
import io.shellgate.reviewer.AuditTrail;
import io.shellgate.reviewer.Decision;
import io.shellgate.reviewer.Gates;
import io.shellgate.reviewer.EntryPoint;
import io.shellgate.reviewer.Origin;
import io.shellgate.reviewer.ReviewRequest;
import io.shellgate.reviewer.Reviewer;
import io.shellgate.reviewer.Step;
import io.shellgate.rules.FileFacts;
import io.shellgate.rules.PolicyException;
import io.shellgate.rules.Tier;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * The judge and the review pipeline inside the host JVM, behind a JDK-typed function (the agent's
 * Java 17 side cannot name these classes). Input: bash command line, cwd, env, pid, main class,
 * session, argument vector (or null to judge the command line as a script). Output: runs, tier, rule, message,
 * and for an allow the judge reached on its own, the file facts it rests on ({@code [op, path,
 * answer]} lists) and the logger of starts made on it (a {@code Consumer<long[]>} of start times);
 * null when it cannot be reused.
 * The policies in effect (found from the process's directory and this JVM's own environment) are
 * read for every process, and a judge is built once per distinct set of their contents.
 */
public final class InProcessJudge implements Function<Object[], Object[]> {

    /** How many judgements apart the open files are marked close-on-exec again (the audit log rotates). */
    private static final int MARK_EVERY = 4096;

    private final Gates gates;
    /** The JVM's own environment, which most processes inherit, copied once instead of for every process. */
    private final Map<String, String> jvmEnv = System.getenv();
    private final Map<String, String> jvmEnvCopy = Map.copyOf(jvmEnv);
    /** The files the agent holds open in this JVM, and the JDK's random devices (which only it reads). */
    private final Set<String> ours = new HashSet<>(List.of("/dev/random", "/dev/urandom"));
    private final Path auditDirectory = AuditTrail.directory(System.getenv());
    private final AtomicInteger judged = new AtomicInteger();

    /**
     * @param policy the agent's {@code policy=} file, or null
     * @param jars the agent's jar and the judge's, which this JVM keeps open
     */
    public InProcessJudge(String policy, List<String> jars) {
        io.shellgate.reviewer.AuditExport.shipFromHere();
        this.gates = new Gates(policy == null ? null : Path.of(policy).toAbsolutePath(), System.getenv());
        ours.addAll(jars);
    }

    private boolean ours(String file) {
        return ours.contains(file) || auditDirectory != null
                && (file.startsWith(auditDirectory + "/audit.") || file.startsWith(auditDirectory + "/otlp-queue/"));
    }

    @Override
    @SuppressWarnings("unchecked")
    public Object[] apply(Object[] in) {
        String command = (String) in[0];
        Path cwd = Path.of((String) in[1]);
        Map<String, String> env = (Map<String, String>) in[2];
        if (env == jvmEnv) {
            env = jvmEnvCopy;
        }
        Origin origin = new Origin(EntryPoint.JAVAAGENT, (Long) in[3], (String) in[4], (String) in[5]);
        Gates.Gate loaded;
        try {
            // the policy files and the review settings are this JVM's user's: the environment a
            // tool gives its child (HOME=/somewhere/else) must not pick another user policy
            loaded = gates.load(cwd, System.getenv());
        } catch (PolicyException e) {
            return new Object[] {false, "error", "policy-error", "a policy file in effect is invalid: "
                + String.join("; ", e.problems())};
        }
        List<String> argv = (List<String>) in[6];
        JudgeRequest request = argv != null ? JudgeRequest.ofArgv(argv, cwd, env)
                : new JudgeRequest(command, Dialect.BASH, cwd, env, null, true);
        Verdict verdict = loaded.judge().judge(request);
        Decision decision = loaded.reviewer().review(new ReviewRequest(request, verdict, origin, null));
        if (judged.getAndIncrement() % MARK_EVERY == 0) {
            // after the first judgement the audit log is open too
            CloseOnExec.mark(this::ours);
        }
        Reason primary = verdict.primary();
        String tier = verdict.tier().name().toLowerCase(Locale.ROOT);
        boolean runs = decision.runs() && verdict.tier() != Tier.DENY;
        String message = verdict.tier() == Tier.ASK ? decision.message() : primary.message();
        List<List<String>> facts = null;
        Consumer<long[]> log = null;
        if (runs && decision.step() == Step.JUDGE && verdict.tier() == Tier.ALLOW) {
            // the file facts this allow rests on, for the agent to reuse it while they hold, and
            // how to log the starts it makes on it (with this verdict, as of their start)
            List<FileFacts.Fact> rests = gates.facts(cwd, System.getenv(), loaded, request);
            if (rests != null) {
                facts = new ArrayList<>(rests.size());
                for (FileFacts.Fact f : rests) {
                    facts.add(List.of(f.op(), f.path(), f.answer()));
                }
                ReviewRequest reviewed = new ReviewRequest(request, verdict, origin, null);
                Reviewer reviewer = loaded.reviewer();
                log = times -> {
                    reviewer.ran(reviewed, times);
                    // the audit log may have been opened afresh (rotated) for these
                    CloseOnExec.mark(this::ours);
                };
            }
        }
        return new Object[] {runs, tier, primary.rule(), message, facts, log};
    }
}
