/**
 * The review pipeline for ask verdicts (remembered approvals, an LLM reviewer, a person, the audit
 * log). Not built yet: see the review pipeline issue.
 */
package io.shellgate.reviewer;
