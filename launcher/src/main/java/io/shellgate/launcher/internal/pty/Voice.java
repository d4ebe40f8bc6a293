package io.shellgate.launcher.internal.pty;

import java.io.IOException;

/**
 * The proxy speaking while the shell waits in its hook. A line editor owns the screen at that
 * moment, so before the first message about a line the proxy replies {@code show}: the hook makes
 * room (zsh: {@code zle -I}; bash: reprints the prompt and the line readline cleared) and answers
 * {@code shown}; the final reply then goes on that exchange. Messages outside a check go straight out.
 */
final class Voice {

    private final Screen screen;
    private final HookChannel channel;
    private HookChannel.Exchange exchange;
    private long seq;
    private boolean shown;

    Voice(Screen screen, HookChannel channel) {
        this.screen = screen;
        this.channel = channel;
    }

    /** A check came in on {@code e}. */
    synchronized void begin(HookChannel.Exchange e, long seq) {
        this.exchange = e;
        this.seq = seq;
        this.shown = false;
    }

    /** The exchange the final reply goes on; the check is over. */
    synchronized HookChannel.Exchange end() {
        HookChannel.Exchange e = exchange;
        exchange = null;
        return e;
    }

    synchronized void say(String text) {
        if (exchange != null && !shown) {
            shown = true;
            try {
                exchange.reply(seq + " show");
                HookChannel.Exchange next = channel.next();
                if (next != null && HookMessage.parse(next.message()) instanceof HookMessage.Shown s && s.seq() == seq) {
                    exchange = next;
                }
            } catch (IOException e) {
                // print anyway
            }
        }
        screen.say(text);
    }
}
