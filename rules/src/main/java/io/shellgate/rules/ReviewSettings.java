package io.shellgate.rules;

import java.util.List;
import java.util.Map;

/**
 * How asks are reviewed. Only the default, the user's file and {@code --policy} may set these: an
 * untrusted project cannot point the LLM reviewer elsewhere or approve anything.
 *
 * @param personTimeoutSeconds how long an ask waits for a person before it is refused
 * @param rememberDays for how many days an approval a person gives for a project ({@code p}) counts, or null for
 *     until it is revoked; the shortest any layer sets
 * @param agentAllowRules whether an ask that an agent's hook hands to the agent's own dialog is left to a specific
 *     allow rule in the agent's own settings that covers the command (Claude Code's {@code permissions.allow}), where
 *     the agent asks before anything its rules do not cover; false when any layer says {@code agent-allow-rules = false}
 * @param agentDialog whether an ask that an agent's hook hands to the agent may be given no decision, so that the agent
 *     shows its own permission dialog (Claude Code's, with "Yes, and don't ask again") instead of the hook's; opt-in:
 *     true only when the user's file, {@code --policy} or the managed policy says {@code agent-dialog = true} and none
 *     of them says false (never a project's file, trusted or not), and only while {@code agentAllowRules} is on
 * @param llm the {@code [review.llm]} table as strings (provider, base-url, model, api-key-env,
 *     may-approve, max-risk, timeout-seconds); empty when not configured
 * @param approvals remembered approvals, in file order
 */
public record ReviewSettings(int personTimeoutSeconds, Integer rememberDays, boolean agentAllowRules, boolean agentDialog,
        Map<String, String> llm, List<Approval> approvals) {

    /** The default time an ask waits for a person. */
    public static final int DEFAULT_PERSON_TIMEOUT_SECONDS = 120;

    public ReviewSettings {
        llm = Map.copyOf(llm);
        approvals = List.copyOf(approvals);
    }
}
