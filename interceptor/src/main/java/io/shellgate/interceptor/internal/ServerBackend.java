package io.shellgate.interceptor.internal;

import io.shellgate.client.Reply;
import io.shellgate.client.RunDirectory;
import io.shellgate.client.ServerConnection;
import java.io.IOException;
import java.nio.channels.ClosedChannelException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Judges through the judge server ({@code shellgate serve}, docs/protocol.md) on JVMs that cannot
 * run the judge: over its Unix socket, with the protocol's client rules from
 * {@code io.shellgate.client} (the run directory and its trust, the stale-server stop, the start
 * throttle, replies), and what is this client's own: a pool of connections, the deadline watch,
 * and the reuse of allows. Every failure is a refusal.
 */
final class ServerBackend implements Backend {

    /**
     * How long the server's first line may take. A judge answers in milliseconds, and a review step
     * that takes longer (the LLM, a person) is announced at once by an interim line, after which the
     * wait is as long as it says ({@value #MAX_WAIT_MILLIS} ms at most). A server that says nothing
     * for this long (stopped, stuck) gets the start refused: a process start blocks the tool's
     * thread before any time-out of the tool's own begins.
     */
    private static final long REPLY_MILLIS = 10_000L;
    private static final long WATCH_MILLIS = 1000;
    private static final long EXPIRED = -1;
    /** A JVM starting on two busy cores may take half a minute: waiting longer only delays a refusal. */
    private static final long START_MILLIS = 60_000L;

    private final RunDirectory run;
    /** Starts a server where none answers, and stops one older than the installed jar. */
    private final ServerProcess process;
    /** This JVM's request lines. */
    private final AgentRequests requests = new AgentRequests();
    private final ConcurrentLinkedQueue<Connection> idle = new ConcurrentLinkedQueue<>();
    /** Every connection not closed yet, idle or waiting for a reply: what the deadline watch looks at. */
    private final Set<Connection> open = ConcurrentHashMap.newKeySet();
    private final long replyMillis;
    /** Allows the server offered for reuse, with the file facts they rest on; made with the backend. */
    private final ReusedAllows reused;

    ServerBackend(Path run, String policy, String launcher, long replyMillis) {
        this.run = new RunDirectory(run);
        this.process = new ServerProcess(this.run, policy, launcher);
        this.replyMillis = replyMillis;
        // made at the first start, which then connects: the threads start with it, inheriting
        // nothing from the tool's thread that happened to start a process first
        Threads.daemon(this::watch, "shellgate-judge-deadline").start();
        this.reused = new ReusedAllows(this::sendStarted);
    }

    static ServerBackend create(AgentOptions options) throws Exception {
        Path run = RunDirectory.locate(System.getenv());
        String policy = null;
        if (options.policy() != null) {
            // a server reads its --policy for every request: one server of its own for this file
            policy = Path.of(options.policy()).toAbsolutePath().toString();
            byte[] h = MessageDigest.getInstance("SHA-256").digest(policy.getBytes(StandardCharsets.UTF_8));
            StringBuilder hex = new StringBuilder();
            for (int i = 0; i < 8; i++) {
                hex.append(String.format("%02x", h[i]));
            }
            run = run.resolve("policy-" + hex);
        }
        return new ServerBackend(run, policy, options.launcher(), REPLY_MILLIS);
    }

    /**
     * The server's answer; or, for a request whose allow the server offered for reuse, that allow
     * without a round trip, when every file fact it rests on (the server's own {@code server.pid}
     * among them) gets the same answer. Such a start is logged by the server all the same: it goes
     * in a {@code ran} notice within {@value ReusedAllows#SEND_MILLIS} ms, or at exit (docs/protocol.md).
     */
    @Override
    public ProcessOutcome decide(JudgeLine line, Map<String, String> env, Path cwd) throws Exception {
        ReusedAllows.Request request = new ReusedAllows.Request(line, env, cwd);
        ProcessOutcome known = reused.reuse(request);
        if (known != null) {
            return known;
        }
        Reply reply = exchange(line, env, cwd);
        ProcessOutcome outcome = ProcessOutcome.of(reply);
        if (reply instanceof Reply.Verdict verdict) {
            if (verdict.warning() != null) {
                // the decision could not be logged: said on every one
                System.err.println(verdict.warning());
            }
            Map<String, Object> recheck = verdict.recheck();
            if (recheck != null && recheck.get("token") instanceof String token && recheck.get("facts") instanceof List<?> facts) {
                reused.offer(request, outcome, facts, token);
            }
        }
        return outcome;
    }

    /**
     * Sends the starts on reused allows: one {@code ran} notice per allow, with every start time,
     * on an idle connection, or a new one when that fails (the server closes idle connections),
     * started if need be (not at exit). What cannot be sent is reported on standard error: those
     * starts are missing from the audit log.
     */
    private void sendStarted(List<ReusedAllows.Batch> batches, boolean atExit) {
        int sent = 0;
        IOException failed = null;
        for (int attempt = 0; attempt < 2 && sent < batches.size(); attempt++) {
            Connection c = idle.poll();
            try {
                if (c == null) {
                    c = atExit ? connect() : connectOrStart();
                }
                for (; sent < batches.size(); sent++) {
                    ReusedAllows.Batch batch = batches.get(sent);
                    c.send(requests.ran(batch, c.jvmEnvSent));
                    if (requests.isJvmEnv(batch.request().env)) {
                        // sent with its id: the server keeps it for the connection
                        c.jvmEnvSent = true;
                    }
                }
                idle.offer(c);
            } catch (IOException e) {
                failed = e;
                if (c != null) {
                    c.close();
                }
            }
        }
        if (sent < batches.size()) {
            int lost = 0;
            for (ReusedAllows.Batch b : batches.subList(sent, batches.size())) {
                lost += b.times().length;
            }
            System.err.println("shellgate: " + lost + " process starts could not be sent to the judge server to be logged: "
                    + failed.getMessage());
        }
    }

    private Reply exchange(JudgeLine line, Map<String, String> env, Path cwd) throws IOException {
        Connection pooled = idle.poll();
        if (pooled != null) {
            try {
                Reply reply = pooled.roundTrip(line, env, cwd);
                idle.offer(pooled);
                return reply;
            } catch (RuntimeException | Overdue e) {
                pooled.close();
                throw e;
            } catch (IOException e) {
                // the server closes connections that idled for 30 s: the others in the pool are
                // as old, so all go, and the request is sent once more on a fresh connection
                pooled.close();
                for (Connection c = idle.poll(); c != null; c = idle.poll()) {
                    c.close();
                }
            }
        }
        Connection fresh = connectOrStart();
        try {
            Reply reply = fresh.roundTrip(line, env, cwd);
            idle.offer(fresh);
            return reply;
        } catch (IOException | RuntimeException e) {
            fresh.close();
            throw e;
        }
    }

    private Connection connectOrStart() throws IOException {
        try {
            return connect();
        } catch (ServerConnection.Untrusted d) {
            // a server started now would be in the same directory, no more believed
            throw notBelieved(d);
        } catch (IOException first) {
            long deadline = System.currentTimeMillis() + START_MILLIS;
            while (true) {
                try {
                    // again while none answers: a start can lose the race for the server lock to a
                    // server that was stopping (the throttle keeps it to one every 10 s)
                    process.start();
                } catch (IOException e) {
                    throw new IOException("no judge server answered in " + run.dir() + ", and none could be started: "
                            + e.getMessage(), e);
                }
                try {
                    Thread.sleep(50);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IOException("interrupted while waiting for the judge server", e);
                }
                try {
                    return connect();
                } catch (ServerConnection.Untrusted d) {
                    throw notBelieved(d);
                } catch (IOException e) {
                    if (System.currentTimeMillis() > deadline) {
                        throw new IOException("no judge server answered in " + run.dir() + " (" + first.getMessage()
                                + "), and none started within " + START_MILLIS / 1000 + " s", e);
                    }
                }
            }
        }
    }

    private IOException notBelieved(ServerConnection.Untrusted d) {
        return new IOException("no judge server in " + run.dir() + " can be believed (" + d.getMessage() + ")", d);
    }

    /**
     * A connection to the server, in a run directory only this user can have made. A server older
     * than the installed shellgate.jar runs old code: it is told to {@code stop}, and once it has
     * gone this counts as finding no server, so that a current one is started.
     */
    private Connection connect() throws IOException {
        ServerConnection c = ServerConnection.unix(run);
        if (!process.isStale()) {
            return new Connection(c);
        }
        process.stop(c);
        throw new IOException("the judge server in " + run.dir() + " is older than the installed shellgate.jar and was stopped");
    }

    /**
     * Closes connections whose reply is overdue, once a second: the reads block (a selector's
     * wait cost a JVM's first starts tens of microseconds each, while its code ran interpreted),
     * and closing the channel is what ends a blocked read. A daemon thread, started with the
     * backend.
     */
    private void watch() {
        while (true) {
            try {
                Thread.sleep(WATCH_MILLIS);
            } catch (InterruptedException e) {
                return;
            }
            long now = System.currentTimeMillis();
            for (Connection c : open) {
                c.expireIfOverdue(now);
            }
        }
    }

    /** No reply within the deadline: the server did get the request, so it is not sent again. */
    private static final class Overdue extends IOException {
        private static final long serialVersionUID = 1L;

        Overdue(long millis) {
            super("the judge server did not answer in " + ServerConnection.seconds(millis));
        }
    }

    /** One connection to the server: one request at a time, a reply read within the deadline the watch keeps. */
    private final class Connection {
        private final ServerConnection server;
        /** Whether the server keeps the JVM's environment on this connection (its reply named the id). */
        private boolean jvmEnvSent;
        /**
         * When the reply being waited for is overdue; 0 while no request is out, {@link #EXPIRED}
         * once the watch closed the connection for it (set only over the deadline it saw, so a
         * reply that came in meanwhile keeps its connection).
         */
        private final AtomicLong deadline = new AtomicLong();

        Connection(ServerConnection server) {
            this.server = server;
            open.add(this);
        }

        /** The reply; one that is no answer (not JSON, no tier) is not retried: the server did judge it. */
        Reply roundTrip(JudgeLine line, Map<String, String> env, Path cwd) throws IOException {
            boolean sent = jvmEnvSent;
            Reply reply = transfer(requests.judge(line, env, cwd, sent), true);
            if (sent && reply instanceof Reply.ServerError e && "unknown-env".equals(e.error())) {
                // the server no longer has it (it should not happen): send it again
                jvmEnvSent = false;
                reply = transfer(requests.judge(line, env, cwd, false), true);
            }
            // a server that keeps environments says so; an older one is always sent the whole of it
            if (requests.isJvmEnv(env) && reply instanceof Reply.Verdict v && AgentRequests.JVM_ENV.equals(v.envId())) {
                jvmEnvSent = true;
            }
            return reply;
        }

        /** Sends a line that gets no reply (a {@code ran} notice), within the deadline. */
        void send(String notice) throws IOException {
            transfer(notice, false);
        }

        /**
         * Writes a line, and reads its reply when {@code reply}, within the deadline the watch
         * keeps: the first line within {@code replyMillis}, and after each interim line (a review
         * step the server waits on, docs/protocol.md) within the time it names.
         */
        private Reply transfer(String line, boolean reply) throws IOException {
            long mine = System.currentTimeMillis() + replyMillis;
            long waited = replyMillis;
            if (!deadline.compareAndSet(0, mine)) {
                // the watch closed it as its last reply came: the request goes on another connection
                throw new ClosedChannelException();
            }
            try {
                server.send(line);
                if (!reply) {
                    return null;
                }
                for (int interim = 0; ; interim++) {
                    Reply got = server.next();
                    if (!(got instanceof Reply.Pending pending)) {
                        return got;
                    }
                    if (interim == 8) {
                        return new Reply.NoAnswer("the judge server sent more than 8 interim lines");
                    }
                    waited = pending.waitMillis();
                    long later = System.currentTimeMillis() + waited;
                    if (!deadline.compareAndSet(mine, later)) {
                        throw new Overdue(waited);
                    }
                    mine = later;
                }
            } catch (ClosedChannelException e) {
                if (deadline.get() == EXPIRED) {
                    throw new Overdue(waited);
                }
                throw e;
            } finally {
                deadline.compareAndSet(mine, 0);
            }
        }

        void expireIfOverdue(long now) {
            long d = deadline.get();
            if (d > 0 && now > d && deadline.compareAndSet(d, EXPIRED)) {
                close();
            }
        }

        void close() {
            open.remove(this);
            server.close();
        }
    }
}
