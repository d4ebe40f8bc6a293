package io.shellgate.launcher.internal.pty;

import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The channel on Unix: two FIFOs in the session's private (0700) directory. The shell writes a
 * message (ended by {@link HookMessage#END}) to {@code req} and closes it; a check then reads one
 * line from {@code rep}. Both sides
 * open the FIFOs afresh for every message, so no descriptor leaks into the commands the shell runs.
 */
final class FifoChannel implements HookChannel {

    private final Path req;
    private final Path rep;
    private final java.io.ByteArrayOutputStream pending = new java.io.ByteArrayOutputStream();
    private volatile boolean closed;

    FifoChannel(Path dir) throws IOException, InterruptedException {
        req = dir.resolve("req");
        rep = dir.resolve("rep");
        Process mk = new ProcessBuilder("mkfifo", "-m", "600", req.toString(), rep.toString()).start();
        if (mk.waitFor() != 0) {
            throw new IOException("cannot create the hook's FIFOs with mkfifo in " + dir);
        }
    }

    @Override
    public Exchange next() throws IOException {
        while (!closed) {
            int end = HookMessage.end(pending.toByteArray());
            if (end >= 0) {
                byte[] all = pending.toByteArray();
                byte[] message = java.util.Arrays.copyOf(all, end);
                pending.reset();
                pending.write(all, end, all.length - end);
                return new Exchange() {
                    @Override
                    public byte[] message() {
                        return message;
                    }

                    @Override
                    public void reply(String line) throws IOException {
                        write(line);
                    }

                    @Override
                    public void acknowledge() {
                        // the shell does not wait for an answer to a prompt
                    }
                };
            }
            // two messages written one right after the other (a prompt, then a check typed ahead) can
            // arrive in one read, before this side sees the end of the first writer
            try (InputStream in = Files.newInputStream(req)) {
                in.transferTo(pending);
            }
        }
        return null;
    }

    private void write(String line) throws IOException {
        // a hook killed before it opened rep would leave this open blocked for ever
        CompletableFuture<Void> done = CompletableFuture.runAsync(() -> {
            try (OutputStream out = new FileOutputStream(rep.toFile())) {
                out.write((line + "\n").getBytes(StandardCharsets.UTF_8));
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        }, r -> Thread.ofVirtual().start(r));
        try {
            done.get(30, TimeUnit.SECONDS);
        } catch (TimeoutException e) {
            unblock(rep);
        } catch (ExecutionException e) {
            throw new IOException("cannot answer the shell's hook", e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Opens the other end of a FIFO so that a blocked open returns. */
    private static void unblock(Path fifo) {
        try (var ignored = new java.io.RandomAccessFile(fifo.toFile(), "rw")) {
            // opening is enough
        } catch (IOException e) {
            // already gone
        }
    }

    @Override
    public void close() {
        closed = true;
        unblock(req);
    }
}
