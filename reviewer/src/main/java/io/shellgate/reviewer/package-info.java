/**
 * The review pipeline: what happens to a judged command line. Allow and deny pass through; an ask
 * goes to remembered approvals, the optional LLM reviewer and a person, and every decision is
 * written to the audit log.
 */
package io.shellgate.reviewer;
