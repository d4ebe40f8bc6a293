package io.shellgate.reviewer.internal;

import io.shellgate.judge.Verdict;
import io.shellgate.reviewer.model.Answer;
import io.shellgate.reviewer.model.PendingAsk;
import io.shellgate.reviewer.model.Person;
import io.shellgate.reviewer.model.ReviewRequest;
import io.shellgate.reviewer.model.Step;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Asks the people who can answer: the person at hand (the terminal of the client, the PTY
 * proxy's prompt) and the person watching the approvals desk, at once; the first answer counts.
 * With nobody to ask, it says so at once instead of waiting: an agent would give up first.
 */
final class PersonStep {

    private static final Duration POLL = Duration.ofMillis(20);

    /** What came of asking: an answer and who gave it, or nobody answered and why. */
    sealed interface Outcome {
        record Answered(Answer answer, String by) implements Outcome {}

        record Nobody(String why) implements Outcome {}
    }

    /** How often an ask that a desktop notice announced looks for someone who started watching. */
    private static final Duration LOOK_FOR_WATCHER = Duration.ofMillis(250);

    private final Path stateDir;
    private final String noTerminal;
    private final DesktopNotice notice;

    /**
     * @param stateDir where the approvals desk listens; null when there is none
     * @param noTerminal why terminals are never asked (their keys may be an agent's), or null when they may be
     * @param notice the desktop notice that tells a person an ask waits, or null where there is none
     */
    PersonStep(Path stateDir, String noTerminal, DesktopNotice notice) {
        this.stateDir = stateDir;
        this.noTerminal = noTerminal;
        this.notice = notice;
    }

    Outcome ask(ReviewRequest r, int seconds) throws InterruptedException {
        Verdict v = r.verdict();
        Instant deadline = Instant.now().plusSeconds(seconds);
        PendingAsk ask = new PendingAsk(UUID.randomUUID().toString(), r.request(), v, r.origin());
        Person local = noTerminal == null ? r.person() : null;
        DeskCall.Reached reached = stateDir == null ? new DeskCall.Reached.Nobody("no state directory for the approvals desk")
                : DeskCall.open(stateDir, ask, deadline);
        DeskCall desk = reached instanceof DeskCall.Reached.Watching w ? w.call() : null;
        if (local == null && desk == null && notice != null && stateDir != null) {
            // nobody watches yet: a desktop notice tells the person, who answers through shellgate approvals
            Duration left = Duration.between(Instant.now(), deadline);
            Duration wait = left.compareTo(notice.waitFor()) < 0 ? left : notice.waitFor();
            if (!wait.isNegative() && !wait.isZero()) {
                // the client waits for a person from now on (showing the notice itself may take seconds)
                r.progress().waiting(Step.PERSON, left);
            }
            if (!wait.isNegative() && !wait.isZero() && notice.show(r.request().command(), wait)) {
                // showing the notice may itself take seconds: the wait still ends at the deadline
                Instant shown = Instant.now().plus(wait);
                Instant until = shown.isAfter(deadline) ? deadline : shown;
                while (desk == null && Instant.now().isBefore(until)) {
                    if (r.clientGone().getAsBoolean()) {
                        return new Outcome.Nobody("the client that asked stopped waiting");
                    }
                    Thread.sleep(LOOK_FOR_WATCHER);
                    reached = DeskCall.open(stateDir, ask, deadline);
                    desk = reached instanceof DeskCall.Reached.Watching w ? w.call() : null;
                }
                if (desk == null) {
                    return new Outcome.Nobody(terminal(r) + ", and nobody started shellgate approvals --watch within "
                            + wait.toSeconds() + " s of the desktop notice");
                }
            }
        }
        if (local == null && desk == null) {
            return new Outcome.Nobody(terminal(r) + ", and " + ((DeskCall.Reached.Nobody) reached).why());
        }
        // someone is asked: the client may wait for them until the deadline
        r.progress().waiting(Step.PERSON, Duration.between(Instant.now(), deadline));
        AtomicReference<Optional<Answer>> said = new AtomicReference<>();
        Thread asking = local == null ? null : Thread.ofVirtual().name("shellgate-person").start(() -> {
            try {
                said.set(local.ask(ask, Duration.ofSeconds(seconds)));
            } catch (InterruptedException e) {
                said.set(Optional.empty());
            }
        });
        try {
            while (Instant.now().isBefore(deadline)) {
                DeskWire.Said.Answered atDesk = desk == null ? null : desk.answer();
                if (atDesk != null) {
                    return new Outcome.Answered(atDesk.answer(), "a person through shellgate approvals");
                }
                Optional<Answer> atHand = said.get();
                if (atHand != null && atHand.isPresent()) {
                    return new Outcome.Answered(atHand.get(), "a person at the terminal");
                }
                if (r.clientGone().getAsBoolean()) {
                    return new Outcome.Nobody("the client that asked stopped waiting");
                }
                boolean handGone = asking == null || atHand != null;
                boolean deskGone = desk == null || desk.gone();
                if (handGone && deskGone) {
                    return new Outcome.Nobody("nobody is left to answer (" + (desk == null ? "the terminal gave no answer"
                            : "shellgate approvals --watch stopped") + ")");
                }
                Thread.sleep(POLL);
            }
            if (desk != null) {
                desk.expire();
            }
            return new Outcome.Nobody("nobody answered within " + seconds + " s");
        } finally {
            if (desk != null) {
                desk.close();
            }
            if (asking != null && asking.isAlive()) {
                asking.interrupt();
            }
        }
    }

    private String terminal(ReviewRequest r) {
        if (r.person() == null) {
            return "there is no terminal to ask on";
        }
        return "the terminal is not asked (" + noTerminal + ")";
    }
}
