package io.shellgate.reviewer.model;

/**
 * Decides whether a judged command line runs. Allow and deny verdicts pass through (and are
 * logged); an ask goes through remembered approvals, the LLM reviewer, a person, in that order,
 * and is refused when nobody answers. Never throws: a failure is a refusal.
 */
public interface Reviewer {

    Decision review(ReviewRequest request);

    /**
     * Logs a command that a client has already started, once for each start time in
     * {@code startedAt} (milliseconds since the epoch), on an allow it reused (the javaagent, after
     * every file fact of that allow got its answer again: docs/protocol.md, {@code ran}).
     * {@code request}'s verdict is the one the starts were made on, or, when the client's allow is
     * not known any more, the judge's verdict now; when that is no longer an allow the records say
     * so, and that the command had started. Decides nothing and asks nobody.
     */
    Decision ran(ReviewRequest request, long[] startedAt);
}
