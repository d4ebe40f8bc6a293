package io.shellgate.reviewer.internal;

import io.shellgate.client.PrivateFolder;
import io.shellgate.reviewer.model.PendingAsk;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * One ask shown at the approvals desk ({@code shellgate approvals --watch}): connected to its
 * socket, told the ask, and waiting for the person's answer. The desk's socket is the only way an
 * answer reaches a waiting ask: a process can make one only by listening on it, which a file
 * written by an agent's tools cannot do, and a command that would is judged first.
 */
final class DeskCall implements AutoCloseable {

    /** How long a desk may take to say it shows the ask; one that does not (stopped with Ctrl-Z) is nobody. */
    private static final Duration QUEUED = Duration.ofSeconds(3);

    /** Whether somebody watches, and if so the call that waits for their answer. */
    sealed interface Reached {
        record Watching(DeskCall call) implements Reached {}

        record Nobody(String why) implements Reached {}
    }

    private final SocketChannel channel;
    private final String id;
    /** The desk's first word on the ask: queued, or away. */
    private final CompletableFuture<DeskWire.Said> queued = new CompletableFuture<>();
    private final CompletableFuture<DeskWire.Said.Answered> answered = new CompletableFuture<>();

    private DeskCall(SocketChannel channel, String id) {
        this.channel = channel;
        this.id = id;
    }

    /** Shows {@code ask} at the desk of {@code stateDir}, if one is watching. */
    static Reached open(Path stateDir, PendingAsk ask, Instant until) {
        Path socket = DeskWire.socket(stateDir);
        if (!Files.exists(socket, LinkOption.NOFOLLOW_LINKS)) {
            return new Reached.Nobody("nobody runs shellgate approvals --watch");
        }
        String distrust = PrivateFolder.problem(stateDir);
        if (distrust == null) {
            distrust = PrivateFolder.fileProblem(socket);
        }
        if (distrust != null) {
            return new Reached.Nobody("the approvals socket is not believed: " + distrust);
        }
        SocketChannel ch;
        try {
            ch = SocketChannel.open(StandardProtocolFamily.UNIX);
        } catch (IOException e) {
            return new Reached.Nobody("no Unix socket: " + e.getMessage());
        }
        DeskCall call = new DeskCall(ch, ask.id());
        try {
            ch.connect(UnixDomainSocketAddress.of(socket));
            ByteBuffer out = ByteBuffer.wrap((DeskWire.ask(ask, Instant.now(), until) + "\n").getBytes(StandardCharsets.UTF_8));
            while (out.hasRemaining()) {
                ch.write(out);
            }
            Thread.ofVirtual().name("shellgate-desk-call").start(call::listen);
            if (call.queued.get(QUEUED.toMillis(), TimeUnit.MILLISECONDS) instanceof DeskWire.Said.Away away) {
                call.close();
                return new Reached.Nobody(away.why());
            }
            return new Reached.Watching(call);
        } catch (IOException | ExecutionException e) {
            call.close();
            // a socket left by a watcher that ended: nobody listens on it
            return new Reached.Nobody("nobody runs shellgate approvals --watch");
        } catch (TimeoutException e) {
            call.close();
            return new Reached.Nobody("shellgate approvals --watch did not take the ask within " + QUEUED.toSeconds()
                    + " s (is it stopped?)");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            call.close();
            return new Reached.Nobody("interrupted");
        } catch (RuntimeException e) {
            call.close();
            return new Reached.Nobody("the approvals socket cannot be used: " + e.getMessage());
        }
    }

    private void listen() {
        try {
            ByteBuffer in = ByteBuffer.allocate(8192);
            ByteArrayOutputStream line = new ByteArrayOutputStream();
            while (channel.read(in.clear()) >= 0) {
                for (int i = 0; i < in.position(); i++) {
                    byte b = in.get(i);
                    if (b != '\n') {
                        line.write(b);
                        if (line.size() > DeskWire.MAX_LINE) {
                            return;
                        }
                        continue;
                    }
                    switch (DeskWire.parseReply(line.toString(StandardCharsets.UTF_8), id)) {
                        case DeskWire.Said.Queued q -> queued.complete(q);
                        case DeskWire.Said.Away a -> queued.complete(a);
                        case DeskWire.Said.Answered a -> answered.complete(a);
                        case DeskWire.Said.Nothing n -> {
                            // not for this ask: ignored
                        }
                    }
                    line.reset();
                }
            }
        } catch (IOException e) {
            // closed by either side
        } finally {
            queued.completeExceptionally(new IOException("the desk closed the connection"));
            answered.completeExceptionally(new IOException("the desk closed the connection"));
        }
    }

    /** The answer, when the person gave one; null while none has come or when the desk went away. */
    DeskWire.Said.Answered answer() {
        return answered.isDone() && !answered.isCompletedExceptionally() ? answered.join() : null;
    }

    /** Whether the desk went away without answering (the watcher stopped). */
    boolean gone() {
        return answered.isCompletedExceptionally();
    }

    /**
     * Withdraws the ask because its time ran out with no answer: the desk learns that its person did not answer,
     * and refuses the next asks at once until the person is back.
     */
    void expire() {
        try {
            ByteBuffer out = ByteBuffer.wrap((DeskWire.expired(id) + "\n").getBytes(StandardCharsets.UTF_8));
            while (out.hasRemaining() && channel.write(out) > 0) {
                // a line this short fits the socket's buffer at once
            }
        } catch (IOException | RuntimeException e) {
            // the desk is gone: nothing to tell
        }
        close();
    }

    /** Withdraws the ask: the desk sees the connection close. */
    @Override
    public void close() {
        try {
            channel.close();
        } catch (IOException e) {
            // closing is all that was asked
        }
    }
}
