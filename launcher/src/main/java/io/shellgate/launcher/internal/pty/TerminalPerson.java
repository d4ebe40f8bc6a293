package io.shellgate.launcher.internal.pty;

import io.shellgate.judge.Reason;
import io.shellgate.reviewer.model.Answer;
import io.shellgate.reviewer.model.KeyAnswer;
import io.shellgate.reviewer.model.PendingAsk;
import io.shellgate.reviewer.model.Person;
import io.shellgate.reviewer.model.Printable;
import java.time.Duration;
import java.util.Optional;

/**
 * The person at the terminal: shown the command, the reasons and the choices, and answering with
 * one key that the proxy reads itself (the shell never sees it). Keys typed before the question
 * was on the screen went to the shell; after it, only a deliberate key answers ({@link KeyAnswer}):
 * {@code y} once, {@code s} always in this session, {@code p} always in this project, and
 * anything else refuses, saying why (a paste or a program writing to the terminal is several keys
 * in one read; a key within {@link KeyAnswer#SETTLE} of the question was typed before it was read).
 */
final class TerminalPerson implements Person {

    private final Voice screen;
    private final Keyboard keyboard;

    TerminalPerson(Voice screen, Keyboard keyboard) {
        this.screen = screen;
        this.keyboard = keyboard;
    }

    @Override
    public Optional<Answer> ask(PendingAsk ask, Duration timeout) throws InterruptedException {
        screen.say(question(ask));
        // from here on keys are the proxy's: what came before went to the shell
        keyboard.divert();
        long shown = System.nanoTime();
        byte[] kept = null;
        try {
            Keyboard.Keys keys = keyboard.keys(timeout);
            if (keys == null) {
                screen.say("no answer in time: not run\n");
                return Optional.empty();
            }
            Duration since = Duration.ofNanos(keys.at() - shown);
            KeyAnswer a = KeyAnswer.of(keys.bytes(), keys.bytes().length, since);
            if (KeyAnswer.typedAhead(keys.bytes().length, since)) {
                // not an answer to the question, but keys the person meant for the shell: they are not lost
                kept = keys.bytes();
            }
            screen.say(a.label() + (kept == null ? "" : " (the keys go to the shell after it)") + "\n");
            return Optional.of(a.answer());
        } finally {
            // keys typed after the answer, and a line typed ahead of it, belong to the shell again
            keyboard.release(kept);
        }
    }

    static String question(PendingAsk ask) {
        StringBuilder b = new StringBuilder("\n\u001b[1mshellgate: this needs your review:\u001b[0m\n");
        for (String line : ask.request().command().strip().split("\n", -1)) {
            b.append("    ").append(Printable.of(line)).append('\n');
        }
        for (Reason r : ask.verdict().bySeverity()) {
            if (r.tier() == ask.verdict().tier()) {
                b.append("  - ").append(Printable.of(r.message())).append(" (").append(r.rule()).append(")\n");
            }
        }
        return b.append(KeyAnswer.SCOPES).append("Run it? ").append(KeyAnswer.CHOICES).append(": ").toString();
    }
}
