package io.shellgate.reviewer;

/**
 * Decides whether a judged command line runs. Allow and deny verdicts pass through (and are
 * logged); an ask goes through remembered approvals, the LLM reviewer, a person, in that order,
 * and is refused when nobody answers. Never throws: a failure is a refusal.
 */
public interface Reviewer {

    Decision review(ReviewRequest request);
}
