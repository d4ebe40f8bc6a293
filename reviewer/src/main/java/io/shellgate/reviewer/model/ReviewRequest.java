package io.shellgate.reviewer.model;

import io.shellgate.judge.JudgeRequest;
import io.shellgate.judge.Verdict;
import java.util.Objects;
import java.util.function.BooleanSupplier;

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
 * @param clientGone true once the client that asked stopped waiting (its connection closed): a
 *     person's review then ends at once, refused
 * @param budget the longest the whole review may take, every step counted (the LLM, a desktop
 *     notice, a person): below an agent's hook timeout for a hook; null for the review's own limits
 * @param progress told before each step that makes the client wait (the LLM, a person), so that it
 *     can tell its client to wait that long; null when nobody is told
 */
public record ReviewRequest(JudgeRequest request, Verdict verdict, Origin origin, Person person, boolean waitForPeople,
        BooleanSupplier clientGone, java.time.Duration budget, Progress progress) {

    /** Hears which step a review waits on, and for how long at most. */
    @FunctionalInterface
    public interface Progress {
        void waiting(Step step, java.time.Duration atMost);
    }

    public ReviewRequest {
        Objects.requireNonNull(request, "request");
        Objects.requireNonNull(verdict, "verdict");
        Objects.requireNonNull(origin, "origin");
        clientGone = clientGone == null ? () -> false : clientGone;
        progress = progress == null ? (step, atMost) -> { } : progress;
    }

    public ReviewRequest(JudgeRequest request, Verdict verdict, Origin origin, Person person, boolean waitForPeople,
            BooleanSupplier clientGone, java.time.Duration budget) {
        this(request, verdict, origin, person, waitForPeople, clientGone, budget, null);
    }

    public ReviewRequest(JudgeRequest request, Verdict verdict, Origin origin, Person person, boolean waitForPeople,
            BooleanSupplier clientGone) {
        this(request, verdict, origin, person, waitForPeople, clientGone, null);
    }

    /** A request that waits for people when it has to, for a client that waits as long. */
    public ReviewRequest(JudgeRequest request, Verdict verdict, Origin origin, Person person) {
        this(request, verdict, origin, person, true, null);
    }

    /** A request for a client that waits as long as the review takes. */
    public ReviewRequest(JudgeRequest request, Verdict verdict, Origin origin, Person person, boolean waitForPeople) {
        this(request, verdict, origin, person, waitForPeople, null);
    }
}
