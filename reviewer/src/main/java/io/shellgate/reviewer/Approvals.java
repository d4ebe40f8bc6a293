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
     * Takes an approval out of the policy file it was written in, under the same lock and checks as writing one.
     *
     * @throws IllegalArgumentException when the file does not hold it as an {@code [[approved]]} table
     */
    public static void revoke(Approval approval, String home) throws IOException, PolicyException {
        ApprovalWriter.remove(Path.of(approval.location().file()), approval.id(), home);
    }
}
