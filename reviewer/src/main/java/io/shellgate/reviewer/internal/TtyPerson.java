package io.shellgate.reviewer.internal;

import io.shellgate.judge.Reason;
import io.shellgate.reviewer.model.Answer;
import io.shellgate.reviewer.model.KeyAnswer;
import io.shellgate.reviewer.model.PendingAsk;
import io.shellgate.reviewer.model.Printable;
import io.shellgate.reviewer.model.Person;
import io.shellgate.rules.Tier;
import java.io.File;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedByInterruptException;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * The person at a terminal device (the client's controlling terminal): the question and the answer
 * go to and from the device itself, never through the command's standard streams. The terminal
 * is put in non-canonical mode without echo for the question, so that one key is read as it is
 * pressed, and only a deliberate key answers ({@link KeyAnswer}); its settings are put back after.
 * A terminal that cannot be opened or set is nobody.
 */
public final class TtyPerson implements Person {

    private final String device;

    public TtyPerson(String device) {
        this.device = device;
    }

    @Override
    public Optional<Answer> ask(PendingAsk ask, Duration timeout) throws InterruptedException {
        synchronized (TtyPerson.class) {
            String saved = stty("-g").strip();
            if (saved.isEmpty()) {
                return Optional.empty();
            }
            try (RandomAccessFile tty = new RandomAccessFile(device, "rw"); FileChannel ch = tty.getChannel()) {
                stty("-icanon", "-echo", "min", "1", "time", "0");
                write(ch, question(ask));
                long shown = System.nanoTime();
                ByteBuffer keys = ByteBuffer.allocate(256);
                // a FileChannel is interruptible: an ask answered elsewhere closes it and the read returns
                if (ch.read(keys) <= 0) {
                    return Optional.empty();
                }
                KeyAnswer a = KeyAnswer.of(keys.array(), keys.position(), Duration.ofNanos(System.nanoTime() - shown));
                write(ch, a.label() + "\r\n");
                return Optional.of(a.answer());
            } catch (ClosedByInterruptException e) {
                throw new InterruptedException("the ask was answered elsewhere");
            } catch (IOException e) {
                return Optional.empty();
            } finally {
                stty(saved);
            }
        }
    }

    private static void write(FileChannel ch, String text) throws IOException {
        ByteBuffer out = ByteBuffer.wrap(text.getBytes(StandardCharsets.UTF_8));
        while (out.hasRemaining()) {
            ch.write(out);
        }
    }

    /** Runs {@code stty} on the device; its output, empty when it failed. Never cut short by an interrupt. */
    private String stty(String... args) {
        boolean interrupted = Thread.interrupted();
        try {
            List<String> command = new ArrayList<>(List.of("stty"));
            command.addAll(List.of(args));
            Process p = new ProcessBuilder(command).redirectInput(new File(device))
                    .redirectError(ProcessBuilder.Redirect.DISCARD).start();
            byte[] out = p.getInputStream().readAllBytes();
            if (!p.waitFor(5, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                return "";
            }
            return p.exitValue() == 0 ? new String(out, StandardCharsets.UTF_8) : "";
        } catch (IOException e) {
            return "";
        } catch (InterruptedException e) {
            interrupted = true;
            return "";
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    static String question(PendingAsk ask) {
        StringBuilder sb = new StringBuilder("\r\nshellgate: review needed for\r\n    ")
                .append(Printable.of(ask.request().command()).replace("\n", "\r\n    ")).append("\r\n  in ")
                .append(Printable.of(ask.request().cwd().toString())).append("\r\n");
        for (Reason r : ask.verdict().reasons()) {
            if (r.tier() == Tier.ASK) {
                sb.append("  - ").append(Printable.of(r.message())).append(" (").append(r.rule()).append(")\r\n");
            }
        }
        return sb.append(KeyAnswer.SCOPES.replace("\n", "\r\n")).append("  run it? ").append(KeyAnswer.CHOICES).append(": ").toString();
    }
}
