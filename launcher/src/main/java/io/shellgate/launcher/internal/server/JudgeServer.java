package io.shellgate.launcher.internal.server;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketTimeoutException;
import java.net.StandardProtocolFamily;
import java.net.StandardSocketOptions;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.Channels;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.HexFormat;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.Semaphore;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The judge server: a long-lived per-user process that keeps the judge warm.
 *
 * <p>It listens on a Unix domain socket in a private directory (only this user can reach it) and
 * on a loopback TCP port for clients that cannot use one, where every request must carry the
 * secret token from a 0600 file. Requests are bounded (1 MiB a line, 10 s to send one, 64 at a
 * time); malformed, oversized, unauthenticated and slow requests get an error reply or are cut,
 * and the server keeps serving. It stops after an idle timeout and removes its files.
 */
public final class JudgeServer implements AutoCloseable {

    private static final System.Logger LOG = System.getLogger(JudgeServer.class.getName());
    private static final int MAX_CONNECTIONS = 64;
    private static final int READ_TIMEOUT_MILLIS = 10_000;
    /** How long a connection may send nothing after its last answer: $SHELLGATE_SERVER_CONNECTION_IDLE_SECONDS, else 30 s. */
    private static final long IDLE_CONNECTION_MILLIS = connectionIdleMillis(System.getenv("SHELLGATE_SERVER_CONNECTION_IDLE_SECONDS"));
    private static final long UNAUTHENTICATED_MILLIS = 1_000;
    /**
     * How long after the last request the heap is compacted (given back to the system). Not sooner:
     * the request after a compaction took 6 ms longer (10.6 against 3.8 ms here), and an agent
     * often thinks for more than a few seconds between two commands (docs/benchmarks.md).
     */
    private static final Duration COMPACT_AFTER = Duration.ofSeconds(60);

    private final RunDir run;
    private final RequestHandler handler;
    private final Duration idle;
    private final String token;
    private final String proof;
    private final Semaphore slots = new Semaphore(MAX_CONNECTIONS);
    private final AtomicLong lastActivity = new AtomicLong(System.nanoTime());
    private final AtomicLong served = new AtomicLong();
    /** How long a judge may take before a client that asked for interim lines is told it is being judged. */
    private static final long SLOW_JUDGE_MILLIS = 500;
    /**
     * What such a client is told the judge may still take: a live server on an overloaded machine
     * (32 threads of one JVM starting processes at once, on two busy cores) took over 15 s.
     */
    private static final long JUDGE_SECONDS = 60;
    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "shellgate-idle");
        t.setDaemon(true);
        return t;
    });
    /**
     * The connections' threads: platform threads kept for a minute after their connection ends, so
     * that a client connecting again finds one waiting instead of paying for a thread's start. The
     * slots hold the connections to {@link #MAX_CONNECTIONS}; the pool may have twice that, since a
     * thread gives its slot back a moment before it can take the next connection.
     */
    private final ThreadPoolExecutor connections = new ThreadPoolExecutor(0, 2 * MAX_CONNECTIONS, 60, TimeUnit.SECONDS,
            new SynchronousQueue<>(), r -> Thread.ofPlatform().daemon().name("shellgate-connection").unstarted(r));
    private ServerSocketChannel unix;
    /** Where the Unix socket is bound (see {@link RunDir#socket()}). */
    private Path socket;
    private ServerSocketChannel tcp;
    private volatile boolean closed;
    /** Whether the heap was compacted since the last request (an idle server gives memory back). */
    private volatile boolean compacted;

    static long connectionIdleMillis(String seconds) {
        if (seconds != null && seconds.matches("[0-9]{1,5}")) {
            return Math.max(1, Long.parseLong(seconds)) * 1000;
        }
        return 30_000;
    }

    public JudgeServer(RunDir run, RequestHandler handler, Duration idle) {
        this.run = run;
        this.handler = handler;
        this.idle = idle;
        byte[] secret = new byte[32];
        new SecureRandom().nextBytes(secret);
        this.token = HexFormat.of().formatHex(secret);
        new SecureRandom().nextBytes(secret);
        this.proof = HexFormat.of().formatHex(secret);
    }

    /** Binds both listeners and publishes the socket, port, token and pid. */
    public void start() throws IOException {
        run.create();
        Files.deleteIfExists(run.dir().resolve("server.sock"));
        socket = run.newSocket();
        Files.deleteIfExists(socket);
        unix = ServerSocketChannel.open(StandardProtocolFamily.UNIX);
        unix.bind(UnixDomainSocketAddress.of(socket));
        Files.setPosixFilePermissions(socket, java.nio.file.attribute.PosixFilePermissions.fromString("rw-------"));
        tcp = ServerSocketChannel.open();
        tcp.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 128);
        run.writePrivate(run.trusted(), "");
        run.writePrivate(run.token(), token + "\n");
        run.writePrivate(run.proof(), proof + "\n");
        run.writePrivate(run.port(), ((InetSocketAddress) tcp.getLocalAddress()).getPort() + "\n");
        run.writePrivate(run.pid(), ProcessHandle.current().pid() + "\n");
        Thread.ofPlatform().daemon().name("shellgate-unix").start(this::acceptUnix);
        Thread.ofPlatform().daemon().name("shellgate-tcp").start(this::acceptTcp);
        timer.scheduleAtFixedRate(this::checkIdle, 1, 1, TimeUnit.SECONDS);
    }

    /** Blocks until the server stops (idle timeout or {@link #close()}). */
    public void await() throws InterruptedException {
        while (!closed) {
            Thread.sleep(200);
        }
        // a close under way (the idle check's, on the timer thread) finishes removing the files
        // before the caller returns and the JVM exits
        synchronized (this) {
            // close() holds the lock until the files are gone
        }
    }

    public long served() {
        return served.get();
    }

    private void checkIdle() {
        long quiet = System.nanoTime() - lastActivity.get();
        if (!compacted && quiet > COMPACT_AFTER.toNanos()) {
            compacted = true;
            // a full collection with the serial collector shrinks the heap to what is live
            System.gc();
        }
        if (quiet > idle.toNanos()) {
            LOG.log(System.Logger.Level.INFO, "shellgate server idle for {0}, stopping", idle);
            close();
        }
    }

    private void acceptUnix() {
        while (!closed) {
            try {
                SocketChannel c = unix.accept();
                LineReader in = new LineReader(Channels.newInputStream(c));
                serve(in, locked(c, Channels.newOutputStream(c)), c, false, () -> hungUp(c, in), null);
            } catch (IOException e) {
                if (!closed) {
                    LOG.log(System.Logger.Level.WARNING, "unix socket accept failed: {0}", e.toString());
                }
            }
        }
    }

    private void acceptTcp() {
        while (!closed) {
            try {
                SocketChannel c = tcp.accept();
                // a reply may follow an interim line at once: not held back until the client acknowledges that line
                c.setOption(StandardSocketOptions.TCP_NODELAY, true);
                // a channel as the Unix socket's, so that the look for a hang-up need not wait (a socket
                // has no read that does not block: a look with the shortest time-out, 1 ms, was paid by
                // every decision, which asks it for its audit record); its socket's streams keep the read
                // time-out
                c.socket().setSoTimeout(READ_TIMEOUT_MILLIS);
                LineReader in = new LineReader(c.socket().getInputStream());
                // closed as a socket closes: its reply (a too-large error, say) followed by the end of the
                // stream, not by a reset when the client's unread request is still in the server's buffer
                AutoCloseable closing = () -> {
                    try {
                        c.shutdownOutput();
                    } finally {
                        c.close();
                    }
                };
                serve(in, locked(c, c.socket().getOutputStream()), closing, true, () -> hungUp(c, in), new AtomicBoolean());
            } catch (IOException e) {
                if (!closed) {
                    LOG.log(System.Logger.Level.WARNING, "tcp accept failed: {0}", e.toString());
                }
            }
        }
    }

    /**
     * Whether the client of a connection closed it, asked while its request waits for a person
     * (nobody else reads the channel then) and for every decision's audit record: a look without
     * blocking; bytes that did come are kept for the next request.
     */
    private static boolean hungUp(SocketChannel c, LineReader in) {
        synchronized (c.blockingLock()) {
            try {
                c.configureBlocking(false);
                java.nio.ByteBuffer b = java.nio.ByteBuffer.allocate(4096);
                int n = c.read(b);
                if (n > 0) {
                    in.unread(b.array(), n);
                }
                return n < 0;
            } catch (IOException e) {
                return true;
            } finally {
                try {
                    c.configureBlocking(true);
                } catch (IOException e) {
                    // closed: the next read says so
                }
            }
        }
    }

    /**
     * A connection's output, written under the channel's blocking lock: an interim line written by
     * the timer's thread never finds the channel in the non-blocking moment of a look for a hang-up
     * (its stream refuses to write then).
     */
    private static OutputStream locked(SocketChannel c, OutputStream out) {
        return new OutputStream() {
            @Override
            public void write(int b) throws IOException {
                write(new byte[] {(byte) b}, 0, 1);
            }

            @Override
            public void write(byte[] b, int off, int len) throws IOException {
                synchronized (c.blockingLock()) {
                    out.write(b, off, len);
                }
            }
        };
    }

    private void serve(LineReader in, OutputStream out, AutoCloseable connection, boolean needsToken,
            java.util.function.BooleanSupplier hungUp, AtomicBoolean authenticated) {
        if (!slots.tryAcquire()) {
            reply(out, Protocol.error("busy", "too many connections; try again"));
            closeQuietly(connection);
            return;
        }
        // a platform thread per connection (at most MAX_CONNECTIONS): a virtual thread's wake-up
        // through the poller made a round trip half again as long (docs/benchmarks.md)
        Runnable work = () -> {
            QuietCut quiet = new QuietCut(connection, authenticated);
            RequestHandler.Connection state = new RequestHandler.Connection();
            state.clientGone(hungUp);
            // no interim line after its request's reply: the two are written under one lock
            AtomicBoolean answered = new AtomicBoolean(true);
            state.interim(line -> {
                synchronized (out) {
                    if (answered.get()) {
                        return;
                    }
                    if (needsToken) {
                        // as every reply after the token was accepted: a client believes no line without it
                        line.put("proof", proof);
                    }
                    reply(out, line);
                }
            });
            try {
                String line;
                while ((line = readLine(in, out)) != null) {
                    quiet.busy = true;
                    quiet.since = System.nanoTime();
                    lastActivity.set(System.nanoTime());
                    compacted = false;
                    answered.set(false);
                    ObjectNode answer = answer(line, needsToken, state, authenticated);
                    served.incrementAndGet();
                    synchronized (out) {
                        answered.set(true);
                        // a ran notice has no reply
                        if (answer != null) {
                            reply(out, answer);
                        }
                    }
                    if (answer != null && answer.has("error") && "too-large".equals(answer.get("error").asText())) {
                        break;
                    }
                    io.shellgate.launcher.internal.server.BatchLines batch = state.takeBatch();
                    if (batch != null) {
                        // the rest of the connection is the batch's lines, however long the client takes
                        BatchRequests.run(batch, in.rest(), out, Runtime.getRuntime().availableProcessors());
                        lastActivity.set(System.nanoTime());
                        break;
                    }
                    quiet.since = System.nanoTime();
                    quiet.busy = false;
                }
            } catch (IOException e) {
                // the client went away or was too slow
            } finally {
                quiet.stop();
                closeQuietly(connection);
                slots.release();
            }
        };
        try {
            connections.execute(work);
        } catch (RejectedExecutionException e) {
            // the server is closing
            closeQuietly(connection);
            slots.release();
        }
    }

    /**
     * A Unix channel has no read timeout of its own: this cuts a connection that sent nothing for
     * the connection idle time (30 s unless set) after its last answer, never one whose request is being
     * answered. It looks when that time could have passed and again from there, instead of being
     * rescheduled for every request (which cost each request a lock and a queue entry that stayed
     * until its time came, cancelled or not).
     */
    private final class QuietCut implements Runnable {
        private final AutoCloseable connection;
        /** On TCP, whether a request carried the token; null on the Unix socket, where only this user connects. */
        private final AtomicBoolean authenticated;
        volatile long since = System.nanoTime();
        volatile boolean busy;
        private volatile boolean stopped;
        private ScheduledFuture<?> next;

        QuietCut(AutoCloseable connection, AtomicBoolean authenticated) {
            this.connection = connection;
            this.authenticated = authenticated;
            after(limit());
        }

        /**
         * How long it may send nothing: a TCP client sends its request as soon as it connects, so one
         * that has not proved itself with the token holds a slot for {@value #UNAUTHENTICATED_MILLIS}
         * ms of quiet at most (idle connections made the server busy for everyone).
         */
        private long limit() {
            return authenticated == null || authenticated.get() ? IDLE_CONNECTION_MILLIS : UNAUTHENTICATED_MILLIS;
        }

        @Override
        public void run() {
            long quiet = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - since);
            long limit = limit();
            if (busy || quiet < limit) {
                after(busy ? limit : limit - quiet);
            } else {
                closeQuietly(connection);
            }
        }

        private synchronized void after(long millis) {
            if (!stopped && !closed) {
                try {
                    next = timer.schedule(this, millis, TimeUnit.MILLISECONDS);
                } catch (RejectedExecutionException e) {
                    // the server is closing, and its connections with it
                }
            }
        }

        synchronized void stop() {
            stopped = true;
            if (next != null) {
                next.cancel(false);
            }
        }
    }

    private ObjectNode answer(String line, boolean needsToken, RequestHandler.Connection state, AtomicBoolean authenticated) {
        JsonNode request;
        try {
            request = Protocol.parse(line);
        } catch (IOException e) {
            return Protocol.error("bad-request", "not valid JSON");
        }
        if (request == null || !request.isObject()) {
            return Protocol.error("bad-request", "a request is one JSON object");
        }
        if (needsToken && !tokenMatches(Protocol.text(request, "token"))) {
            return Protocol.error("unauthorized", "a TCP request needs the token from " + run.token());
        }
        if (authenticated != null) {
            authenticated.set(true);
        }
        ObjectNode out;
        if ("batch".equals(Protocol.text(request, "op"))) {
            // a batch holds its connection for as long as the client sends lines: only on the Unix
            // socket, whose reads have no time limit and which only this user can reach
            if (needsToken) {
                out = Protocol.error("bad-request", "batch is served on the Unix socket only");
            } else {
                // building the judge of a configuration the server has not seen takes long on a busy machine
                ScheduledFuture<?> slow = request.path("interim").asBoolean(false)
                        ? timer.schedule(() -> state.pending("judge", JUDGE_SECONDS), SLOW_JUDGE_MILLIS, TimeUnit.MILLISECONDS)
                        : null;
                try {
                    out = handler.batch(request, state);
                } finally {
                    if (slow != null) {
                        slow.cancel(false);
                    }
                }
            }
        } else if ("stop".equals(Protocol.text(request, "op"))) {
            timer.schedule(this::close, 50, TimeUnit.MILLISECONDS);
            out = Protocol.object();
            out.put("v", Protocol.VERSION);
            out.put("stopping", true);
        } else {
            // a judge that takes long (a server's first request builds its judge, on a busy machine
            // in seconds) says so, so that a client that asked for interim lines tells it from a
            // stopped server, which says nothing at all
            String op = Protocol.text(request, "op");
            ScheduledFuture<?> slow = request.path("interim").asBoolean(false) && !"ran".equals(op)
                    ? timer.schedule(() -> state.pending("judge", JUDGE_SECONDS), SLOW_JUDGE_MILLIS, TimeUnit.MILLISECONDS)
                    : null;
            try {
                out = handler.handle(request, state);
            } finally {
                if (slow != null) {
                    slow.cancel(false);
                }
            }
        }
        if (out == null) {
            return null;
        }
        if (needsToken) {
            // after the token was checked: the proof lets a TCP client tell this server from
            // anything else that might listen on a port it left behind
            out.put("proof", proof);
        }
        return out;
    }

    private boolean tokenMatches(String given) {
        return given != null && MessageDigest.isEqual(given.getBytes(StandardCharsets.UTF_8), token.getBytes(StandardCharsets.UTF_8));
    }

    /** One line, at most {@link Protocol#MAX_REQUEST} bytes; null at end of stream. */
    private static String readLine(LineReader in, OutputStream out) throws IOException {
        try {
            return in.next();
        } catch (LineReader.TooLong e) {
            reply(out, Protocol.error("too-large", "a request line is at most " + Protocol.MAX_REQUEST + " bytes"));
            throw new IOException("request too large");
        } catch (SocketTimeoutException e) {
            reply(out, Protocol.error("timeout", "the request was not sent in time"));
            throw e;
        }
    }

    private static void reply(OutputStream out, ObjectNode answer) {
        try {
            out.write((Protocol.line(answer) + "\n").getBytes(StandardCharsets.UTF_8));
            out.flush();
        } catch (IOException e) {
            // the client is gone
        }
    }

    private static void closeQuietly(AutoCloseable c) {
        try {
            c.close();
        } catch (Exception e) {
            // nothing to do
        }
    }

    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        closeQuietly(unix);
        closeQuietly(tcp);
        connections.shutdown();
        try {
            // only remove files that are still ours
            if (Files.isRegularFile(run.pid()) && Files.readString(run.pid()).strip().equals(Long.toString(ProcessHandle.current().pid()))) {
                if (socket != null) {
                    Files.deleteIfExists(socket);
                }
                if (socket != null && !socket.startsWith(run.dir())) {
                    Files.deleteIfExists(socket.getParent());
                    Files.deleteIfExists(run.socketPointer());
                }
                Files.deleteIfExists(run.port());
                Files.deleteIfExists(run.token());
                Files.deleteIfExists(run.proof());
                Files.deleteIfExists(run.trusted());
                Files.deleteIfExists(run.pid());
            }
        } catch (IOException e) {
            LOG.log(System.Logger.Level.WARNING, "cannot remove the server files in {0}: {1}", run.dir(), e.toString());
        }
        // last: the idle check runs this on the timer's thread, which shutting the timer down interrupts
        timer.shutdownNow();
    }
}
