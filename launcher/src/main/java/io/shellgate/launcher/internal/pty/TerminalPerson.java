package io.shellgate.launcher.internal.pty;

import io.shellgate.judge.Reason;
import io.shellgate.reviewer.Answer;
import io.shellgate.reviewer.PendingAsk;
import io.shellgate.reviewer.Person;
import java.time.Duration;
import java.util.Optional;

/**
 * The person at the terminal: shown the command, the reasons and the choices, and answering with
 * one key that the proxy reads itself (the shell never sees it). {@code y} or {@code o} runs it
 * once, {@code s} always in this session, {@code p} always in this project; {@code n}, {@code r},
 * Esc, Ctrl-C and Ctrl-D refuse. Other keys are ignored.
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
        keyboard.divert();
        try {
            screen.say(question(ask));
            long deadline = System.nanoTime() + timeout.toNanos();
            while (true) {
                long left = deadline - System.nanoTime();
                Integer key = left > 0 ? keyboard.key(Duration.ofNanos(left)) : null;
                if (key == null) {
                    screen.say("no answer in time: not run\n");
                    return Optional.empty();
                }
                Answer a = answer(key);
                if (a != null) {
                    // keys typed after the answer is shown belong to the shell again
                    keyboard.release();
                    screen.say(label(a) + "\n");
                    return Optional.of(a);
                }
            }
        } finally {
            keyboard.release();
        }
    }

    static String question(PendingAsk ask) {
        StringBuilder b = new StringBuilder("\n\u001b[1mshellgate: this needs your review:\u001b[0m\n");
        for (String line : ask.request().command().strip().split("\n", -1)) {
            b.append("    ").append(line).append('\n');
        }
        for (Reason r : ask.verdict().bySeverity()) {
            if (r.tier() == ask.verdict().tier()) {
                b.append("  - ").append(r.message()).append(" (").append(r.rule()).append(")\n");
            }
        }
        b.append("Run it? [y] once  [s] always in this session  [p] always in this project  [n] refuse: ");
        return b.toString();
    }

    /** The answer a key means, or null for a key that means nothing here. */
    static Answer answer(int key) {
        return switch (key) {
            case 'y', 'Y', 'o', 'O' -> Answer.ONCE;
            case 's', 'S' -> Answer.SESSION;
            case 'p', 'P' -> Answer.PROJECT;
            case 'n', 'N', 'r', 'R', 27, 3, 4, -1 -> Answer.REFUSE;
            default -> null;
        };
    }

    private static String label(Answer a) {
        return switch (a) {
            case ONCE -> "once";
            case SESSION -> "always in this session";
            case PROJECT -> "always in this project";
            case REFUSE -> "refused";
        };
    }
}
