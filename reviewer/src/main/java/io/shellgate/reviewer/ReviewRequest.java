package io.shellgate.reviewer;

import io.shellgate.judge.JudgeRequest;
import io.shellgate.judge.Verdict;
import java.util.Objects;

/**
 * A judged command line to decide on.
 *
 * @param request the command line and where it would run
 * @param verdict the judge's verdict on it
 * @param origin who asked
 * @param person a person at hand for this request (the PTY proxy's prompt), or null; people
 *     answering through {@code shellgate approvals} are always asked as well
 */
public record ReviewRequest(JudgeRequest request, Verdict verdict, Origin origin, Person person) {

    public ReviewRequest {
        Objects.requireNonNull(request, "request");
        Objects.requireNonNull(verdict, "verdict");
        Objects.requireNonNull(origin, "origin");
    }
}
