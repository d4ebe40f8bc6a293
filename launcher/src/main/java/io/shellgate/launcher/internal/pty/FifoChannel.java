package io.shellgate.launcher.internal.pty;

import java.io.ByteArrayOutputStream;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The channel on Unix: two FIFOs in the session's private (0700) directory. The shell writes a
 * message (ended by {@link HookMessage#END}) to {@code req}; a check then reads one line from
 * {@code rep}. The shell opens the FIFOs afresh for every message, so no descriptor leaks into the
 * commands it runs; the proxy keeps {@code req} open for reading and writing for the whole session.
 * (Opening it afresh for every message lost messages: a shell that opened {@code req} just after the
 * proxy had read the end of the previous writer, but before it closed its side, wrote into a pipe
 * that the close then emptied, and both sides waited for ever.)
 */
final class FifoChannel implements HookChannel {

    private final Path rep;
    private final FileChannel requests;
    private final ByteBuffer chunk = ByteBuffer.allocate(64 * 1024);
    private final ByteArrayOutputStream pending = new ByteArrayOutputStream();
    private volatile boolean closed;

    FifoChannel(Path dir) throws IOException, InterruptedException {
        Path req = dir.resolve("req");
        rep = dir.resolve("rep");
        Process mk = new ProcessBuilder("mkfifo", "-m", "600", req.toString(), rep.toString()).start();
        if (mk.waitFor() != 0) {
            throw new IOException("cannot create the hook's FIFOs with mkfifo in " + dir);
        }
        // read and write: the open does not wait for a writer, and the FIFO never reports an end
        requests = FileChannel.open(req, StandardOpenOption.READ, StandardOpenOption.WRITE);
    }

    @Override
    public Exchange next() throws IOException {
        while (!closed) {
            int end = HookMessage.end(pending.toByteArray());
            if (end >= 0) {
                byte[] all = pending.toByteArray();
                byte[] message = Arrays.copyOf(all, end);
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
                    public void acknowledge() throws IOException {
                        // the shell waits for it, so that a prompt it shows is one the proxy has taken
                        write("ok");
                    }
                };
            }
            chunk.clear();
            int n;
            try {
                n = requests.read(chunk);
            } catch (ClosedChannelException e) {
                return null;
            }
            if (n > 0) {
                pending.write(chunk.array(), 0, n);
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
        try {
            // a read under way is woken (and fails) by the close
            requests.close();
        } catch (IOException e) {
            // closed already
        }
    }
}
