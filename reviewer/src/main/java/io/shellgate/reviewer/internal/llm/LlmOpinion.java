package io.shellgate.reviewer.internal.llm;

import java.util.Objects;

/**
 * What the LLM reviewer made of an ask.
 *
 * @param outcome approve, refuse or escalate; escalate also whenever the LLM could not be asked or
 *     its reply could not be trusted
 * @param risk the risk the LLM reported; {@link Risk#HIGH} when it reported none that could be used
 * @param reason one sentence for the person and the audit log, free of control characters
 */
public record LlmOpinion(Outcome outcome, Risk risk, String reason) {

    public LlmOpinion {
        Objects.requireNonNull(outcome, "outcome");
        Objects.requireNonNull(risk, "risk");
        Objects.requireNonNull(reason, "reason");
    }

    /** Leaves the ask to a person because of {@code why}. */
    public static LlmOpinion escalate(String why) {
        return new LlmOpinion(Outcome.ESCALATE, Risk.HIGH, why);
    }

    /**
     * Whether this opinion lets the command run under {@code config}: only an approval, only when
     * the LLM may approve, and only at a risk strictly below the configured maximum. Everything
     * else leaves the ask to the next step.
     */
    public boolean approves(LlmConfig config) {
        return outcome == Outcome.APPROVE && config.mayApprove() && risk.compareTo(config.maxRisk()) < 0;
    }
}
