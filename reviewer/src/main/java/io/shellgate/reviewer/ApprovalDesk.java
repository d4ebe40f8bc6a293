package io.shellgate.reviewer;

import io.shellgate.client.PrivateFolder;
import io.shellgate.reviewer.config.StateDir;
import io.shellgate.reviewer.internal.DeskWire;
import io.shellgate.reviewer.model.Answer;
import io.shellgate.reviewer.model.Printable;
import io.shellgate.reviewer.model.Waiting;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * The approvals desk: the one process, started by a person with {@code shellgate approvals
 * --watch}, that says "I am watching" for a state directory. While it runs, asks wait for its
 * person (every process that reviews connects to its socket, {@code approvals.sock}); while it
 * does not, an ask with nobody at a terminal is refused at once. Answers travel only back over
 * the asker's own connection: there is no file an agent could write to answer its own ask.
 */
public final class ApprovalDesk implements AutoCloseable {

    private final Path socket;
    private final FileChannel lockFile;
    private final FileLock lock;
    private final ServerSocketChannel server;
    private final BlockingQueue<Asked> asks = new LinkedBlockingQueue<>();
    /** Every ask whose asker is connected, shown or not: closing the desk withdraws them all. */
    private final Set<Asked> live = ConcurrentHashMap.newKeySet();
    private volatile boolean closed;
    /** Why asks are refused at once instead of waiting here (its person left a question unanswered); null while present. */
    private volatile String away;
    /** How many asks were refused at once since the person was last here. */
    private final java.util.concurrent.atomic.AtomicInteger refusedAway = new java.util.concurrent.atomic.AtomicInteger();

    private ApprovalDesk(Path socket, FileChannel lockFile, FileLock lock, ServerSocketChannel server) {
        this.socket = socket;
        this.lockFile = lockFile;
        this.lock = lock;
        this.server = server;
    }

    /**
     * Starts watching the state directory of {@code env}.
     *
     * @throws IOException with the reason when it cannot: no state directory, one that others may
     *     write, another watcher already at it, a socket path too long
     */
    public static ApprovalDesk open(Map<String, String> env) throws IOException {
        Path dir = StateDir.of(env);
        if (dir == null) {
            throw new IOException("no state directory: set HOME, XDG_STATE_HOME or SHELLGATE_STATE_DIR");
        }
        StateDir.ensure(dir);
        String distrust = PrivateFolder.problem(dir);
        if (distrust != null) {
            throw new IOException("the state directory cannot be trusted: " + distrust);
        }
        FileChannel lockFile = FileChannel.open(dir.resolve(DeskWire.LOCK), StandardOpenOption.CREATE, StandardOpenOption.WRITE);
        FileLock lock = lockFile.tryLock();
        if (lock == null) {
            lockFile.close();
            throw new IOException("another shellgate approvals --watch is watching " + dir + " already");
        }
        Path socket = DeskWire.socket(dir);
        try {
            // held the lock: a socket here is left from a watcher that ended
            Files.deleteIfExists(socket);
            ServerSocketChannel server = ServerSocketChannel.open(StandardProtocolFamily.UNIX);
            server.bind(UnixDomainSocketAddress.of(socket));
            Files.setPosixFilePermissions(socket, PosixFilePermissions.fromString("rw-------"));
            ApprovalDesk desk = new ApprovalDesk(socket, lockFile, lock, server);
            Thread.ofPlatform().daemon().name("shellgate-desk").start(desk::accept);
            return desk;
        } catch (IOException | RuntimeException e) {
            lock.release();
            lockFile.close();
            throw new IOException("cannot listen on " + socket + ": " + e.getMessage(), e);
        }
    }

    /** Where askers reach this desk. */
    public Path socket() {
        return socket;
    }

    /** The next ask, oldest first; null when none came within {@code timeout}. */
    public Asked next(Duration timeout) throws InterruptedException {
        return asks.poll(timeout.toMillis(), TimeUnit.MILLISECONDS);
    }

    private void accept() {
        while (!closed) {
            try {
                SocketChannel c = server.accept();
                Thread.ofVirtual().name("shellgate-desk-ask").start(() -> take(c));
            } catch (IOException e) {
                if (!closed) {
                    System.getLogger("io.shellgate.reviewer").log(System.Logger.Level.WARNING, "approvals desk: " + e);
                }
            }
        }
    }

    private void take(SocketChannel c) {
        Asked asked = null;
        try {
            ByteBuffer in = ByteBuffer.allocate(8192);
            ByteArrayOutputStream line = new ByteArrayOutputStream();
            int newline = -1;
            while (newline < 0 && c.read(in.clear()) >= 0) {
                for (int i = 0; i < in.position() && newline < 0; i++) {
                    if (in.get(i) == '\n') {
                        newline = i;
                    } else {
                        line.write(in.get(i));
                    }
                }
                if (line.size() > DeskWire.MAX_LINE) {
                    break;
                }
            }
            Waiting w = newline < 0 ? null : DeskWire.parseAsk(line.toString(StandardCharsets.UTF_8));
            if (w == null) {
                c.close();
                return;
            }
            asked = new Asked(w, c);
            live.add(asked);
            if (closed) {
                return;
            }
            String why = away;
            if (why != null) {
                // nobody answers here now: the ask must not wait for this watcher
                refusedAway.incrementAndGet();
                asked.send(DeskWire.away(w.id(), "shellgate approvals --watch is open, but " + why
                        + "; a key pressed there makes it ask again"));
                return;
            }
            asked.send(DeskWire.queued(w.id()));
            asks.add(asked);
            // what comes from an asker: at most the word that its time ran out unanswered, then the end of its stream
            line.reset();
            while (c.read(in.clear()) >= 0) {
                for (int i = 0; i < in.position(); i++) {
                    if (in.get(i) != '\n') {
                        if (line.size() < 4096) {
                            line.write(in.get(i));
                        }
                        continue;
                    }
                    if (DeskWire.isExpired(line.toString(StandardCharsets.UTF_8), w.id())) {
                        away = "its question about " + Printable.of(firstLine(w.command())) + " went unanswered";
                    }
                    line.reset();
                }
            }
        } catch (IOException e) {
            // closed by either side
        } finally {
            if (asked != null) {
                asked.close();
                live.remove(asked);
            }
        }
    }

    private static String firstLine(String command) {
        String s = command.strip();
        int nl = s.indexOf('\n');
        String first = nl < 0 ? s : s.substring(0, nl) + " …";
        return first.length() > 60 ? first.substring(0, 60) + "…" : first;
    }

    /**
     * Why asks are refused at once instead of waiting for this watcher's person, or null while the person is
     * taken to be there: an ask that ran out of time here unanswered makes the desk "away" until {@link #present}.
     */
    public String away() {
        return away;
    }

    /**
     * The person is at the watcher (pressed a key): asks wait here again.
     *
     * @return how many asks were refused at once while the person was away
     */
    public int present() {
        away = null;
        return refusedAway.getAndSet(0);
    }

    /** Stops watching: every ask still waiting here is withdrawn from this desk, and its asker refuses it. */
    @Override
    public void close() {
        closed = true;
        try {
            server.close();
            Files.deleteIfExists(socket);
        } catch (IOException e) {
            // the socket goes with the directory at worst
        }
        asks.clear();
        for (Asked a : live) {
            a.close();
        }
        try {
            lock.release();
            lockFile.close();
        } catch (IOException e) {
            // released when the process ends
        }
    }

    /** One ask at the desk: what it is, whether its asker still waits, and the way to answer it. */
    public static final class Asked {

        private final Waiting waiting;
        private final SocketChannel connection;
        private volatile boolean withdrawn;

        Asked(Waiting waiting, SocketChannel connection) {
            this.waiting = waiting;
            this.connection = connection;
        }

        public Waiting waiting() {
            return waiting;
        }

        /** Whether the asker stopped waiting (answered elsewhere, timed out, or its client went away). */
        public boolean withdrawn() {
            return withdrawn || !connection.isOpen();
        }

        /** Sends the answer; false when the asker no longer waits for one. */
        public boolean answer(Answer answer, String by) {
            if (withdrawn()) {
                return false;
            }
            try {
                send(DeskWire.answer(waiting.id(), answer, by));
                return true;
            } catch (IOException e) {
                return false;
            } finally {
                close();
            }
        }

        private synchronized void send(String line) throws IOException {
            ByteBuffer out = ByteBuffer.wrap((line + "\n").getBytes(StandardCharsets.UTF_8));
            while (out.hasRemaining()) {
                connection.write(out);
            }
        }

        void close() {
            withdrawn = true;
            try {
                connection.close();
            } catch (IOException e) {
                // gone already
            }
        }
    }
}
