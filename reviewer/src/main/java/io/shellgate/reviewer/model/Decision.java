package io.shellgate.reviewer.model;

import io.shellgate.judge.Verdict;
import io.shellgate.rules.Tier;
import java.util.Objects;

/**
 * The final word on a command line: whether it runs, which step decided, and why.
 *
 * @param runs whether the command may run
 * @param step the step that decided
 * @param message a sentence for the person or agent whose command it is
 * @param verdict the judge's verdict the review started from
 */
public record Decision(boolean runs, Step step, String message, Verdict verdict) {

    public Decision {
        Objects.requireNonNull(step, "step");
        Objects.requireNonNull(message, "message");
        Objects.requireNonNull(verdict, "verdict");
        if (runs && verdict.tier() == Tier.DENY) {
            throw new IllegalArgumentException("a denied command line cannot run");
        }
    }
}
