package io.shellgate.reviewer.model;

import io.shellgate.judge.JudgeRequest;
import io.shellgate.judge.Verdict;

/**
 * An ask waiting for an answer, as a person sees it.
 *
 * @param id a one-time id: an answer is bound to this request, not to a later look-alike
 * @param request the command line and where it would run
 * @param verdict why the judge asked
 * @param origin who asked
 */
public record PendingAsk(String id, JudgeRequest request, Verdict verdict, Origin origin) {}
