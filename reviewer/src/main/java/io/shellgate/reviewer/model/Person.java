package io.shellgate.reviewer.model;

import java.time.Duration;
import java.util.Optional;

/** A person who can answer an ask: the PTY proxy's prompt, the controlling terminal. */
public interface Person {

    /**
     * Shows the ask and waits for an answer.
     *
     * @return the answer, or empty when the person could not be reached or did not answer in time
     */
    Optional<Answer> ask(PendingAsk ask, Duration timeout) throws InterruptedException;
}
