package io.shellgate.reviewer;

import io.shellgate.judge.JudgeRequest;
import io.shellgate.judge.Verdict;
import io.shellgate.reviewer.internal.ApprovalMatcher;
import io.shellgate.reviewer.internal.ApprovalWriter;
import io.shellgate.rules.Approval;
import io.shellgate.rules.Policy;
import io.shellgate.rules.PolicyException;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** Remembered approvals as a person sees them: which one would let a line run, how often each was used, undoing one. */
public final class Approvals {

    private Approvals() {}

    /**
     * The remembered approval that would let this asked line run without asking, as the review pipeline finds it
     * (session answers aside).
     *
     * @param home the gate's home, for approvals limited to {@code ~/…}
     */
    public static Optional<Approval> covering(Policy policy, String home, JudgeRequest request, Verdict verdict) {
        return ApprovalMatcher.find(policy, home, request, verdict, Instant.now());
    }

    /** How many decisions of the audit log each approval made (by id); empty when there is no log. */
    public static Map<String, Integer> uses(Map<String, String> env, List<Approval> approvals) throws IOException {
        Map<String, Integer> out = new HashMap<>();
        approvals.forEach(a -> out.put(a.id(), 0));
        for (String line : AuditTrail.lines(env)) {
            int at = line.indexOf("remembered approval ");
            if (at < 0) {
                continue;
            }
            int start = at + "remembered approval ".length();
            int end = line.indexOf(' ', start);
            String id = end < 0 ? line.substring(start) : line.substring(start, end);
            out.computeIfPresent(id, (k, n) -> n + 1);
        }
        return out;
    }

    /**
     * Remembers a person's approval of an asked line for its project, as the answer {@code p} does: the line in its
     * remembered form (paths inside the project written absolute), limited to the project that holds {@code cwd},
     * written to the user's policy file, counting for the policy's {@code remember-days} when it sets them.
     *
     * @param by who approves, for the entry's note
     * @return the new entry's id
     * @throws IllegalStateException when the managed policy switched remembered approvals off, or there is no user
     *     policy file (HOME is not set)
     */
    public static String remember(Map<String, String> env, Policy policy, JudgeRequest request, String by)
            throws IOException, PolicyException {
        if (!policy.fleet().rememberedApprovals()) {
            throw new IllegalStateException("the managed policy switched remembered approvals off");
        }
        Optional<Path> file = io.shellgate.rules.PolicyLoader.userPolicyPath(env);
        Optional<Path> projectPolicy = io.shellgate.rules.PolicyLoader.projectPolicyPath(request.cwd());
        if (file.isEmpty() || projectPolicy.isEmpty()) {
            throw new IllegalStateException("there is no user policy file to remember it in (HOME is not set)");
        }
        Path root = projectPolicy.get().getParent().getParent();
        Integer days = policy.review().rememberDays();
        Instant expires = days == null ? null
                : Instant.now().plus(java.time.Duration.ofDays(days)).truncatedTo(java.time.temporal.ChronoUnit.SECONDS);
        return ApprovalWriter.appendExact(file.get(), ApprovalMatcher.remembered(request, root), root.toString(), by,
                env.get("HOME"), expires);
    }

    /**
     * Takes an approval out of the policy file it was written in, under the same lock and checks as writing one.
     *
     * @throws IllegalArgumentException when the file does not hold it as an {@code [[approved]]} table
     */
    public static void revoke(Approval approval, String home) throws IOException, PolicyException {
        ApprovalWriter.remove(Path.of(approval.location().file()), approval.id(), home);
    }
}
