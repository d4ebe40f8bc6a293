package io.shellgate.interceptor.internal;

import io.shellgate.client.Reply;

/**
 * What the gate does with one process: start it or refuse it, and why.
 *
 * @param runs whether the process may start
 * @param tier the judge's tier ({@code allow}, {@code ask}, {@code deny}), or {@code error} when no
 *     judge answered
 * @param rule the id of the rule that decided
 * @param message why, in a sentence
 */
record ProcessOutcome(boolean runs, String tier, String rule, String message) {

    /** A refusal because nothing could judge the process. */
    static ProcessOutcome error(String rule, String message) {
        return new ProcessOutcome(false, "error", rule, message);
    }

    /** What the judge server's reply makes of the process: it runs only where {@link Reply.Verdict#mayRun} says so. */
    static ProcessOutcome of(Reply reply) {
        if (reply instanceof Reply.Verdict v) {
            return new ProcessOutcome(v.mayRun(), v.tier(), v.rule(), v.sentence());
        }
        if (reply instanceof Reply.ServerError e) {
            return error(e.rule(), e.sentence());
        }
        if (reply instanceof Reply.NoAnswer n) {
            return error("judge-error", n.why());
        }
        return error("judge-error", "the judge server's reply had no tier");
    }
}
