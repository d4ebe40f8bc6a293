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
 * @param waitForPeople whether an ask that memory and the LLM leave open waits for a person; false
 *     when the caller asks its own user (an agent's hook answers "ask" to the agent)
 */
public record ReviewRequest(JudgeRequest request, Verdict verdict, Origin origin, Person person, boolean waitForPeople) {

    public ReviewRequest {
        Objects.requireNonNull(request, "request");
        Objects.requireNonNull(verdict, "verdict");
        Objects.requireNonNull(origin, "origin");
    }

    /** A request that waits for people when it has to. */
    public ReviewRequest(JudgeRequest request, Verdict verdict, Origin origin, Person person) {
        this(request, verdict, origin, person, true);
    }
}
