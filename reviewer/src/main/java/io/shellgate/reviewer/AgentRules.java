package io.shellgate.reviewer;

import io.shellgate.judge.JudgeRequest;
import io.shellgate.judge.Verdict;

/**
 * The allow rules in an agent's own settings (Claude Code's {@code permissions.allow}), which an ask its hook hands to
 * the agent may be left to: the agent then decides by its own rule instead of showing its dialog. Asked only for an
 * ask that memory and the LLM left open, and only when the policy says {@code [review] agent-allow-rules} is on.
 */
public interface AgentRules {

    /**
     * The agent's own rule that covers this whole command line, with the file it is in ({@code Bash(npm run lint) in
     * /p/.claude/settings.local.json}), or null when none does.
     */
    String covering(JudgeRequest request);

    /**
     * Whether the agent's own permission dialog may be shown for this ask instead of the hook's (the hook then gives no
     * decision): only where the agent would surely ask its user and not run the line by a rule or a read-only list of
     * its own. Asked only when no rule {@link #covering} it and the policy says {@code [review] agent-dialog} is on.
     *
     * @return the words for the audit log (what the agent's dialog offers), or null to keep the hook's own ask
     */
    default String ownDialog(JudgeRequest request, Verdict verdict) {
        return null;
    }
}
