package io.shellgate.reviewer.internal;

import io.shellgate.judge.Reason;
import io.shellgate.reviewer.Answer;
import io.shellgate.reviewer.PendingAsk;
import io.shellgate.reviewer.Person;
import io.shellgate.rules.Tier;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Optional;

/**
 * The person at the controlling terminal ({@code /dev/tty}). The question and the answer go to
 * and from the terminal itself, never through the command's stdin or stdout. Without a
 * controlling terminal the person cannot be reached and the answer is empty.
 */
public final class TtyPerson implements Person {

    private final String device;

    public TtyPerson(String device) {
        this.device = device;
    }

    @Override
    public Optional<Answer> ask(PendingAsk ask, Duration timeout) throws InterruptedException {
        synchronized (TtyPerson.class) {
            try (RandomAccessFile tty = new RandomAccessFile(device, "rw"); FileChannel ch = tty.getChannel()) {
                ch.write(ByteBuffer.wrap(question(ask).getBytes(StandardCharsets.UTF_8)));
                // a FileChannel is interruptible: a cancelled ask closes it and the read returns
                StringBuilder line = new StringBuilder();
                ByteBuffer one = ByteBuffer.allocate(1);
                while (true) {
                    one.clear();
                    if (ch.read(one) <= 0) {
                        return Optional.empty();
                    }
                    char c = (char) (one.get(0) & 0xff);
                    if (c == '\n' || c == '\r') {
                        break;
                    }
                    line.append(c);
                }
                return Optional.of(switch (line.toString().strip().toLowerCase(java.util.Locale.ROOT)) {
                    case "o", "once", "y", "yes" -> Answer.ONCE;
                    case "s", "session" -> Answer.SESSION;
                    case "p", "project" -> Answer.PROJECT;
                    default -> Answer.REFUSE;
                });
            } catch (java.nio.channels.ClosedByInterruptException e) {
                throw new InterruptedException("the ask was answered elsewhere");
            } catch (IOException e) {
                return Optional.empty();
            }
        }
    }

    static String question(PendingAsk ask) {
        StringBuilder sb = new StringBuilder("\r\nshellgate: review needed for\r\n    ")
                .append(ask.request().command().replace("\n", "\r\n    ")).append("\r\n  in ")
                .append(ask.request().cwd()).append("\r\n");
        for (Reason r : ask.verdict().reasons()) {
            if (r.tier() == Tier.ASK) {
                sb.append("  - ").append(r.message()).append(" (").append(r.rule()).append(")\r\n");
            }
        }
        return sb.append("  run it? [o]nce, always this [s]ession, always in this [p]roject, [r]efuse (default): ").toString();
    }
}
