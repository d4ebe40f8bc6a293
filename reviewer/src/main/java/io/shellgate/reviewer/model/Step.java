package io.shellgate.reviewer.model;

import java.util.Locale;

/** The step of the review pipeline that decided, in the order the steps run. */
public enum Step {
    /** The judge decided on its own (allow or deny). */
    JUDGE,
    /** A remembered approval. */
    MEMORY,
    /** The LLM reviewer. */
    LLM,
    /** A person. */
    PERSON,
    /** Nobody answered in time, or nobody could be reached. */
    TIMEOUT,
    /**
     * Handed to the agent's own confirmation (an agent's hook that answered ask): its user decides there, and whether
     * the command ran is what the agent says after it (Claude Code's PostToolUse hook).
     */
    AGENT,
    /** The gate itself, before any judging: the policy cannot be used, or there is no audit log where one is needed. */
    GATE;

    /** The id used in the audit log and the protocol. */
    public String id() {
        return name().toLowerCase(Locale.ROOT);
    }
}
