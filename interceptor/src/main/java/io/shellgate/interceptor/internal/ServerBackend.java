package io.shellgate.interceptor.internal;

import io.shellgate.client.Json;
import io.shellgate.client.Reply;
import io.shellgate.client.Requests;
import io.shellgate.client.RunDirectory;
import io.shellgate.client.ServerConnection;
import io.shellgate.client.ServerStarts;
import java.io.File;
import java.io.IOException;
import java.nio.channels.ClosedChannelException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.ArrayList;
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
    /** How long a server told to stop may take to exit before a new one is started all the same. */
    private static final long STOP_MILLIS = 10_000L;
    /** The name the JVM's own environment has on a connection. */
    static final String JVM_ENV = "jvm";

    private final RunDirectory run;
    private final String policy;
    /** The shellgate launcher that starts a server; null when none was found. */
    private final Path launcher;
    /** The installed shellgate.jar beside the launcher: a server older than it is stopped; null when none. */
    private final Path jar;
    /** The request's last field, the same for every request from this JVM. */
    private final String originJson = originJson(OriginInfo.current());
    private final ConcurrentLinkedQueue<Connection> idle = new ConcurrentLinkedQueue<>();
    /** Every connection not closed yet, idle or waiting for a reply: what the deadline watch looks at. */
    private final Set<Connection> open = ConcurrentHashMap.newKeySet();
    private final long replyMillis;
    /** Most processes inherit the JVM's own environment, which never changes: written as JSON once. */
    private final Map<String, String> jvmEnv = System.getenv();
    private final String jvmEnvJson = envJson(jvmEnv);
    private static final String JUDGE = "{\"v\":1,\"op\":\"judge\",";
    private static final String RAN = "{\"v\":1,\"op\":\"ran\",\"times\":[";
    /** When this JVM last started a server (ms since the epoch): many threads failing to connect at once start one. */
    private final AtomicLong lastStart = new AtomicLong(Long.MIN_VALUE / 2);
    /** Allows the server offered for reuse, with the file facts they rest on; made with the backend. */
    private final ReusedAllows reused;

    ServerBackend(Path run, String policy, String launcher, long replyMillis) {
        this.run = new RunDirectory(run);
        this.policy = policy;
        this.launcher = launcherPath(launcher);
        this.jar = installedJar(this.launcher);
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
    public Outcome decide(JudgeLine line, Map<String, String> env, Path cwd) throws Exception {
        ReusedAllows.Request request = new ReusedAllows.Request(line, env, cwd);
        Outcome known = reused.reuse(request);
        if (known != null) {
            return known;
        }
        Reply reply = exchange(line, env, cwd);
        Outcome outcome = Outcome.of(reply);
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
                    c.send(ranNotice(batches.get(sent), c));
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

    /** The {@code ran} notice of the starts on one allow (its handle is the server's token), for connection {@code c}. */
    private String ranNotice(ReusedAllows.Batch batch, Connection c) {
        ReusedAllows.Request first = batch.request();
        StringBuilder r = new StringBuilder(RAN);
        for (int i = 0; i < batch.times().length; i++) {
            (i == 0 ? r : r.append(',')).append(batch.times()[i]);
        }
        Json.string(r.append("],\"token\":"), (String) batch.handle()).append(",");
        String judge = request(first.line, first.env, first.cwd, c.jvmEnvSent);
        if (first.env == jvmEnv) {
            // sent with its id: the server keeps it for the connection
            c.jvmEnvSent = true;
        }
        return r.append(judge, JUDGE.length(), judge.length()).toString();
    }

    private static String originJson(OriginInfo origin) {
        StringBuilder r = new StringBuilder(",\"origin\":{\"entry\":\"javaagent\",\"pid\":").append(origin.pid());
        Json.string(r.append(",\"detail\":"), origin.detail());
        return Json.string(r.append(",\"session\":"), origin.session()).append("}}\n").toString();
    }

    private static String envJson(Map<String, String> env) {
        StringBuilder r = new StringBuilder(2 + 64 * env.size()).append('{');
        boolean first = true;
        for (Map.Entry<String, String> e : env.entrySet()) {
            if (!first) {
                r.append(',');
            }
            first = false;
            Json.string(r, e.getKey()).append(':');
            Json.string(r, e.getValue());
        }
        return r.append('}').toString();
    }

    /**
     * The request line. The JVM's own environment goes with the id {@value #JVM_ENV}; once the
     * server has said it keeps it on a connection ({@code sent}), later requests on it send only
     * the id (the environment, a few kilobytes, was otherwise written and parsed for every process).
     * A process with an environment of its own is judged in it, with the JVM's as the one the
     * policies and review settings come from ({@code settings-env}): a child without {@code HOME}
     * must not leave the user's policy and the audit log behind.
     */
    private String request(JudgeLine line, Map<String, String> env, Path cwd, boolean sent) {
        StringBuilder r = new StringBuilder(256 + 64 * env.size());
        r.append(JUDGE).append("\"entry\":\"javaagent\",\"review\":true,\"interim\":true,\"brief\":true,\"recheck\":true,"
                + "\"fresh\":true,\"cmd\":");
        Json.string(r, line.command()).append(",\"dialect\":\"bash\",\"cwd\":");
        Json.string(r, cwd.toString());
        if (env != jvmEnv) {
            r.append(",\"env\":").append(envJson(env)).append(",\"settings-env\":")
                    .append(sent ? "\"" + JVM_ENV + "\"" : jvmEnvJson);
        } else if (sent) {
            r.append(",\"env-id\":\"" + JVM_ENV + "\"");
        } else {
            r.append(",\"env-id\":\"" + JVM_ENV + "\",\"env\":").append(jvmEnvJson);
        }
        if (line.argv() != null) {
            r.append(",\"argv\":[");
            for (int i = 0; i < line.argv().size(); i++) {
                Json.string(i == 0 ? r : r.append(','), line.argv().get(i));
            }
            r.append(']');
        }
        return r.append(originJson).toString();
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
                    startServer();
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
        if (jar == null || !run.olderThan(jar)) {
            return new Connection(c);
        }
        long pid = serverPid();
        try {
            c.send(Requests.stop(null));
            // its reply is not waited for, only its exit
            c.next();
        } catch (IOException e) {
            // it may close the connection as it stops
        } finally {
            c.close();
        }
        awaitExit(pid);
        throw new IOException("the judge server in " + run.dir() + " is older than " + jar + " and was stopped");
    }

    /** The pid the server wrote, when that file can be believed; -1 otherwise. */
    private long serverPid() {
        try {
            if (io.shellgate.client.PrivateFolder.fileProblem(run.pid()) == null) {
                return Long.parseLong(Files.readString(run.pid()).strip());
            }
        } catch (IOException | NumberFormatException e) {
            // no pid to wait for
        }
        return -1;
    }

    /** Waits (at most {@value #STOP_MILLIS} ms) for a stopped server's exit, which frees the run directory's lock. */
    private void awaitExit(long pid) throws IOException {
        long deadline = System.currentTimeMillis() + STOP_MILLIS;
        while (System.currentTimeMillis() < deadline && (pid > 0 ? ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false)
                : run.olderThan(jar))) {
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IOException("interrupted while waiting for the old judge server to stop", e);
            }
        }
    }

    /** Starts {@code shellgate serve} for the run directory, at most once every 10 s across clients. */
    private void startServer() throws IOException {
        // one start per JVM every 10 s: the other threads that found no server wait for that one
        long millis = System.currentTimeMillis();
        long last = lastStart.get();
        if (millis - last < 10_000 || !lastStart.compareAndSet(last, millis)) {
            return;
        }
        if (launcher == null) {
            throw new IOException("no shellgate launcher was found to start one (give the agent launcher=PATH, or put"
                    + " shellgate next to the agent jar or on PATH)");
        }
        if (!Files.isExecutable(launcher)) {
            throw new IOException("the shellgate launcher " + launcher + " cannot be run");
        }
        if (!ServerStarts.claim(run, millis / 1000)) {
            return;
        }
        List<String> command = new ArrayList<>(List.of(launcher.toString(), "serve"));
        if (policy != null) {
            command.add("--policy");
            command.add(policy);
        }
        ProcessBuilder pb = new ProcessBuilder(command).redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
                .redirectOutput(ProcessBuilder.Redirect.DISCARD).redirectError(ProcessBuilder.Redirect.DISCARD);
        Map<String, String> env = pb.environment();
        // the server's JVM must not carry this agent (JAVA_TOOL_OPTIONS is how it usually arrives)
        env.remove("JAVA_TOOL_OPTIONS");
        env.remove("JDK_JAVA_OPTIONS");
        env.remove(AgentOptions.ENV);
        env.put("SHELLGATE_RUN_DIR", run.dir().toString());
        Gate.startOwn(pb);
    }

    /** The launcher given, else the one next to the agent jar, else the first on PATH; null when none is found. */
    private static Path launcherPath(String given) {
        if (given != null) {
            return Path.of(given);
        }
        Path agent = OriginInfo.agentJar();
        if (agent != null && Files.isExecutable(agent.resolveSibling("shellgate"))) {
            return agent.resolveSibling("shellgate");
        }
        String path = System.getenv("PATH");
        for (String dir : (path == null ? "" : path).split(":")) {
            if (!dir.isEmpty() && Files.isExecutable(Path.of(dir, "shellgate"))) {
                return Path.of(dir, "shellgate");
            }
        }
        return null;
    }

    /** The shellgate.jar the launcher runs (next to it, links resolved, as the launcher script finds it); null when none. */
    private static Path installedJar(Path launcher) {
        if (launcher == null) {
            return null;
        }
        try {
            Path jar = launcher.toRealPath().resolveSibling("shellgate.jar");
            return Files.isRegularFile(jar) ? jar : null;
        } catch (IOException | SecurityException e) {
            return null;
        }
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
            Reply reply = transfer(request(line, env, cwd, sent), true);
            if (sent && reply instanceof Reply.ServerError e && "unknown-env".equals(e.error())) {
                // the server no longer has it (it should not happen): send it again
                jvmEnvSent = false;
                reply = transfer(request(line, env, cwd, false), true);
            }
            // a server that keeps environments says so; an older one is always sent the whole of it
            if (env == jvmEnv && reply instanceof Reply.Verdict v && JVM_ENV.equals(v.envId())) {
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
