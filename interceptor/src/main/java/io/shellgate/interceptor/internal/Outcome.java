package io.shellgate.interceptor.internal;

/**
 * What the gate does with one process: start it or refuse it, and why.
 *
 * @param runs whether the process may start
 * @param tier the judge's tier ({@code allow}, {@code ask}, {@code deny}), or {@code error} when no
 *     judge answered
 * @param rule the id of the rule that decided
 * @param message why, in a sentence
 */
record Outcome(boolean runs, String tier, String rule, String message) {

    /** A refusal because nothing could judge the process. */
    static Outcome error(String rule, String message) {
        return new Outcome(false, "error", rule, message);
    }
}
