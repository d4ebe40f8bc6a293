package io.shellgate.launcher.internal.person;

import io.shellgate.launcher.internal.terminal.UserTerminal;
import io.shellgate.reviewer.ApprovalDesk;
import io.shellgate.reviewer.model.KeyAnswer;
import io.shellgate.reviewer.model.Printable;
import io.shellgate.reviewer.model.Waiting;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * {@code shellgate approvals --watch} on the person's terminal: shows each ask as it comes (who
 * asked, where, the command, why) and reads the answer as one deliberate key ({@link KeyAnswer}).
 * Keys typed while nothing is asked are dropped; Ctrl-C, Ctrl-D or {@code q} then stop watching. A question left
 * unanswered until its time ran out makes the desk refuse the next asks at once (an agent must not wait on an empty
 * chair) until a key is pressed here again.
 */
public final class Watcher {

    /** One read from the keyboard and when it arrived. */
    private record Keys(byte[] bytes, long at) {}

    private final UserTerminal terminal;
    private final ApprovalDesk desk;
    private final String by;
    private final BlockingQueue<Keys> keys = new LinkedBlockingQueue<>();

    public Watcher(UserTerminal terminal, ApprovalDesk desk, String by) {
        this.terminal = terminal;
        this.desk = desk;
        this.by = by;
    }

    /** Watches until the person stops it or the terminal closes. */
    public void run() throws InterruptedException {
        Thread.ofPlatform().daemon().name("shellgate-watch-keys").start(this::read);
        say("shellgate approvals: watching " + desk.socket().getParent() + "; commands that need review now wait for"
                + " you here.\nCtrl-C, Ctrl-D or q stops watching (then they are refused at once again).\n");
        boolean toldAway = false;
        while (true) {
            ApprovalDesk.Asked asked = desk.next(Duration.ofMillis(200));
            String away = desk.away();
            if (away != null && !toldAway) {
                say("Nobody answered in time here (" + Printable.of(away) + "): commands that need review are refused at"
                        + " once now instead of waiting. Press a key (Enter) when you are back to be asked again.\n");
                toldAway = true;
            }
            if (asked == null) {
                Keys k = keys.poll();
                if (k != null && stops(k)) {
                    return;
                }
                if (k != null && away != null) {
                    int refused = desk.present();
                    toldAway = false;
                    say("Watching again" + (refused == 0 ? "" : "; " + refused + (refused == 1 ? " command was" : " commands were")
                            + " refused while nobody answered here (shellgate log shows them)") + ".\n");
                }
                continue;
            }
            if (asked.withdrawn()) {
                continue;
            }
            if (!ask(asked)) {
                return;
            }
        }
    }

    /** Shows one ask and answers it; false when the keyboard closed. */
    private boolean ask(ApprovalDesk.Asked asked) throws InterruptedException {
        Waiting w = asked.waiting();
        say(question(w));
        // whatever was typed before the question was on the screen is no answer to it
        keys.clear();
        long shown = System.nanoTime();
        while (true) {
            Keys k = keys.poll(100, TimeUnit.MILLISECONDS);
            if (asked.withdrawn()) {
                say("\nno longer waiting (answered elsewhere, out of time, or its client went away)\n");
                return k == null || k.bytes().length > 0;
            }
            if (k == null) {
                continue;
            }
            KeyAnswer a = KeyAnswer.of(k.bytes(), k.bytes().length, Duration.ofNanos(k.at() - shown));
            say(a.label() + "\n");
            // a key pressed at a question: the person is here
            desk.present();
            if (!asked.answer(a.answer(), by)) {
                say("(too late: it no longer waits for an answer)\n");
            }
            return k.bytes().length > 0;
        }
    }

    static String question(Waiting w) {
        long left = Math.max(0, Duration.between(Instant.now(), w.until()).toSeconds());
        StringBuilder b = new StringBuilder("\n\u001b[1mshellgate: review needed\u001b[0m  (").append(Printable.of(w.entry()));
        if (w.pid() != 0) {
            b.append(", pid ").append(w.pid());
        }
        if (!w.detail().isEmpty()) {
            b.append(", ").append(Printable.of(w.detail()));
        }
        if (!w.session().isEmpty()) {
            b.append(", session ").append(Printable.of(w.session()));
        }
        b.append("; refused in ").append(left).append(" s without an answer)\n  in ").append(Printable.of(w.cwd())).append('\n');
        for (String line : w.command().strip().split("\n", -1)) {
            b.append("    ").append(Printable.of(line)).append('\n');
        }
        for (String r : w.reasons()) {
            b.append("  - ").append(Printable.of(r)).append('\n');
        }
        return b.append(KeyAnswer.SCOPES).append("Run it? ").append(KeyAnswer.CHOICES).append(": ").toString();
    }

    private static boolean stops(Keys k) {
        for (byte b : k.bytes()) {
            if (b == 3 || b == 4 || b == 'q' || b == 'Q') {
                return true;
            }
        }
        return k.bytes().length == 0;
    }

    private void read() {
        InputStream in = terminal.input();
        byte[] buf = new byte[4096];
        try {
            int n;
            while ((n = in.read(buf)) >= 0) {
                keys.add(new Keys(Arrays.copyOf(buf, n), System.nanoTime()));
            }
        } catch (IOException e) {
            // the terminal went away
        }
        keys.add(new Keys(new byte[0], System.nanoTime()));
    }

    private void say(String text) {
        OutputStream out = terminal.output();
        try {
            // the terminal is raw: every newline needs its carriage return
            out.write(text.replace("\n", "\r\n").getBytes(StandardCharsets.UTF_8));
            out.flush();
        } catch (IOException e) {
            // the terminal is gone; the keyboard's end stops the watch
        }
    }
}
