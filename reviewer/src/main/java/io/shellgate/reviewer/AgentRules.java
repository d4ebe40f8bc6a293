package io.shellgate.reviewer;

import io.shellgate.judge.JudgeRequest;

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
}
