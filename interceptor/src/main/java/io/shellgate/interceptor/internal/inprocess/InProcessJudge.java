package io.shellgate.interceptor.internal.inprocess;

import io.shellgate.judge.Dialect;
import io.shellgate.judge.JudgeRequest;
import io.shellgate.judge.Reason;
import io.shellgate.judge.Verdict;
import io.shellgate.reviewer.model.EntryPoint;
import io.shellgate.reviewer.config.GateConfig;
import io.shellgate.reviewer.Gatekeeper;
import io.shellgate.reviewer.model.Origin;
import io.shellgate.reviewer.People;
import io.shellgate.reviewer.Result;
import io.shellgate.reviewer.model.Step;
import io.shellgate.rules.FileFacts;
import io.shellgate.rules.Tier;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
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

    private final Gatekeeper gate;
    /** The JVM's own environment, which most processes inherit, copied once instead of for every process. */
    private final Map<String, String> jvmEnv = System.getenv();
    private final Map<String, String> jvmEnvCopy = Map.copyOf(jvmEnv);
    /** The files the agent holds open in this JVM, and the JDK's random devices (which only it reads). */
    private final Set<String> ours = new HashSet<>(List.of("/dev/random", "/dev/urandom"));
    private final Path auditDirectory;
    private final AtomicInteger judged = new AtomicInteger();

    /**
     * @param policy the agent's {@code policy=} file, or null
     * @param jars the agent's jar and the judge's, which this JVM keeps open
     */
    public InProcessJudge(String policy, List<String> jars) {
        io.shellgate.reviewer.AuditExport.shipFromHere();
        // the policy files, the review's settings and the audit log are this JVM's user's, found from
        // its own environment: the environment a tool gives its child (HOME=/elsewhere) is the child's
        this.gate = Gatekeeper.of(GateConfig.of(jvmEnvCopy, policy == null ? null : Path.of(policy)));
        this.auditDirectory = gate.config().stateDir();
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
        List<String> argv = (List<String>) in[6];
        JudgeRequest request = argv != null ? JudgeRequest.ofArgv(argv, cwd, env)
                : new JudgeRequest(command, Dialect.BASH, cwd, env, null, true);
        Result result = gate.decide(request, origin, People.none());
        if (judged.getAndIncrement() % MARK_EVERY == 0) {
            // after the first judgement the audit log is open too
            CloseOnExec.mark(this::ours);
        }
        if (result.warning() != null) {
            System.err.println(result.warning());
        }
        List<List<String>> facts = null;
        Consumer<long[]> log = null;
        switch (result) {
            case Result.PolicyBroken p -> {
                return new Object[] {false, "error", "policy-error", "a policy file in effect is invalid: "
                    + String.join("; ", p.problems())};
            }
            case Result.Refused r -> {
                return new Object[] {false, r.verdict() == null ? "error" : r.tier().id(), r.rule(), r.message()};
            }
            case Result.Runs r -> {
                if (r.step() == Step.JUDGE && r.verdict().tier() == Tier.ALLOW) {
                    // the file facts this allow rests on, for the agent to reuse it while they hold, and
                    // how to log the starts it makes on it (with this verdict, as of their start)
                    List<FileFacts.Fact> rests = gate.facts(request);
                    if (rests != null) {
                        facts = new ArrayList<>(rests.size());
                        for (FileFacts.Fact f : rests) {
                            facts.add(List.of(f.op(), f.path(), f.answer()));
                        }
                        Verdict verdict = r.verdict();
                        log = times -> {
                            String warning = gate.ran(request, verdict, origin, times);
                            if (warning != null) {
                                System.err.println(warning);
                            }
                            // the audit log may have been opened afresh (rotated) for these
                            CloseOnExec.mark(this::ours);
                        };
                    }
                }
                Reason primary = r.verdict().primary();
                String message = r.verdict().tier() == Tier.ASK ? r.message() : primary.message();
                return new Object[] {true, r.verdict().tier().id(), primary.rule(), message, facts, log};
            }
        }
    }
}
