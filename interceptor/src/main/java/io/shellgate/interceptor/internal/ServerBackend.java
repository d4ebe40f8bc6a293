package io.shellgate.interceptor.internal;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.Paths;
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
 * run the judge: over its Unix socket, in a run directory that must belong to this user, starting
 * a server when none answers. Every failure is a refusal.
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
    /** The longest an interim line may make a start wait (a person's review: at most 600 s). */
    private static final long MAX_WAIT_MILLIS = 630_000L;
    private static final long WATCH_MILLIS = 1000;
    private static final long EXPIRED = -1;
    /** A JVM starting on two busy cores may take half a minute: waiting longer only delays a refusal. */
    private static final long START_MILLIS = 60_000L;
    /** The name the JVM's own environment has on a connection. */
    static final String JVM_ENV = "jvm";

    private final Path run;
    private final String policy;
    private final String launcher;
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
        this.run = run;
        this.policy = policy;
        this.launcher = launcher;
        this.replyMillis = replyMillis;
        // made at the first start, which then connects: the threads start with it, inheriting
        // nothing from the tool's thread that happened to start a process first
        Threads.daemon(this::watch, "shellgate-judge-deadline").start();
        this.reused = new ReusedAllows(this::sendStarted);
    }

    static ServerBackend create(AgentOptions options) throws Exception {
        Path run = runDirectory(System.getenv());
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
     * The run directory, decided as {@code io.shellgate.rules.Places#run} decides it for the launcher
     * and the server (docs/protocol.md): the agent's core cannot load that class (it has only its
     * own and ByteBuddy's), so ServerBackendTest holds the two to each other.
     */
    static Path runDirectory(Map<String, String> env) {
        Path explicit = absolute(env.get("SHELLGATE_RUN_DIR"));
        if (explicit != null) {
            return explicit;
        }
        Path runtime = absolute(env.get("XDG_RUNTIME_DIR"));
        if (runtime != null && Files.isDirectory(runtime)) {
            return runtime.resolve("shellgate");
        }
        Path state = absolute(env.get("XDG_STATE_HOME"));
        if (state != null) {
            return state.resolve("shellgate").resolve("run");
        }
        return home(env).resolve(".local").resolve("state").resolve("shellgate").resolve("run");
    }

    /** {@code $HOME} when it is an absolute path, else the home of the password database. */
    static Path home(Map<String, String> env) {
        Path home = absolute(env.get("HOME"));
        return home != null ? home : Paths.get(System.getProperty("user.home"));
    }

    /** The path when it is an absolute one; null otherwise (a relative one would move with a cd). */
    static Path absolute(String value) {
        if (value == null || value.isEmpty()) {
            return null;
        }
        try {
            Path p = Paths.get(value);
            return p.isAbsolute() ? p : null;
        } catch (java.nio.file.InvalidPathException e) {
            return null;
        }
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
        Map<String, Object> reply = exchange(line, env, cwd);
        if (reply.get("warning") instanceof String warning) {
            // the decision could not be logged: said on every one
            System.err.println(warning);
        }
        Outcome outcome = outcome(reply);
        if (reply.get("recheck") instanceof Map<?, ?> recheck && recheck.get("token") instanceof String token
                && recheck.get("facts") instanceof List<?> facts) {
            reused.offer(request, outcome, facts, token);
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

    /**
     * Runs only on {@code allow}, or on {@code ask} when the review's {@code run} is true (the
     * server adds {@code run}, {@code step} and {@code decided} beside the verdict); a missing
     * {@code run} on an ask means nobody approved it.
     */
    static Outcome outcome(Map<String, Object> reply) {
        Object error = reply.get("error");
        String message = String.valueOf(reply.getOrDefault("message", ""));
        if (error != null) {
            return "policy".equals(error)
                    ? Outcome.error("policy-error", "a policy file in effect is invalid: " + message)
                    : Outcome.error("judge-error", "the judge server could not judge it (" + error + ": " + message + ")");
        }
        String tier = String.valueOf(reply.get("tier"));
        String rule = String.valueOf(reply.getOrDefault("rule", "unknown"));
        Object decided = reply.get("decided");
        switch (tier) {
            case "allow":
                return new Outcome(true, tier, rule, message);
            case "deny":
                return new Outcome(false, tier, rule, message);
            case "ask":
                if (Boolean.TRUE.equals(reply.get("run"))) {
                    return new Outcome(true, tier, rule, String.valueOf(decided));
                }
                return new Outcome(false, tier, rule, decided instanceof String s
                        ? s : "needed review (" + message + "), and no reviewer approved it");
            default:
                return Outcome.error("judge-error", "the judge server's reply had no tier");
        }
    }

    private Map<String, Object> exchange(JudgeLine line, Map<String, String> env, Path cwd) throws IOException {
        Connection pooled = idle.poll();
        if (pooled != null) {
            try {
                Map<String, Object> reply = pooled.roundTrip(line, env, cwd);
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
            Map<String, Object> reply = fresh.roundTrip(line, env, cwd);
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
        } catch (Distrusted d) {
            // a server started now would be in the same directory, no more believed
            throw notBelieved(d);
        } catch (IOException first) {
            try {
                startServer();
            } catch (IOException e) {
                throw new IOException("no judge server answered in " + run + ", and none could be started: " + e.getMessage(), e);
            }
            long deadline = System.currentTimeMillis() + START_MILLIS;
            while (true) {
                try {
                    return connect();
                } catch (Distrusted d) {
                    throw notBelieved(d);
                } catch (IOException e) {
                    if (System.currentTimeMillis() > deadline) {
                        throw new IOException("no judge server answered in " + run + " (" + first.getMessage()
                                + "), and none started within " + START_MILLIS / 1000 + " s", e);
                    }
                }
                try {
                    Thread.sleep(50);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IOException("interrupted while waiting for the judge server", e);
                }
            }
        }
    }

    private IOException notBelieved(Distrusted d) {
        return new IOException("no judge server in " + run + " can be believed (" + d.getMessage() + ")", d);
    }

    private Connection connect() throws IOException {
        Path socket = socket();
        if (!Files.exists(socket, LinkOption.NOFOLLOW_LINKS)) {
            throw new IOException("no server.sock");
        }
        // a socket only this user can have made: in a directory of theirs that nobody else may write
        // (where another user could swap the socket for one of their own)
        String distrust = RunDirTrust.problem(run, true);
        if (distrust == null && !socket.startsWith(run)) {
            distrust = RunDirTrust.problem(socket.getParent(), true);
        }
        if (distrust == null) {
            distrust = RunDirTrust.problem(socket, false);
        }
        if (distrust != null) {
            throw new Distrusted("the run directory is not believed: " + distrust);
        }
        SocketChannel ch = SocketChannel.open(StandardProtocolFamily.UNIX);
        try {
            ch.connect(UnixDomainSocketAddress.of(socket));
            return new Connection(ch);
        } catch (IOException e) {
            ch.close();
            throw e;
        }
    }

    /**
     * The server's Unix socket: {@code server.sock} in the run directory, or, where that path is
     * longer than 100 bytes (a Unix socket's path may be 107 at most, and the JDK refuses 107), the
     * path {@code server.sockpath} names (the server binds it in a private directory under /tmp);
     * the rules of RunDir.socket in the launcher, which this core cannot load.
     */
    private Path socket() {
        Path own = run.resolve("server.sock");
        if (own.toString().getBytes(StandardCharsets.UTF_8).length <= 100) {
            return own;
        }
        try {
            Path pointer = run.resolve("server.sockpath");
            if (Files.isRegularFile(pointer, LinkOption.NOFOLLOW_LINKS) && RunDirTrust.problem(pointer, false) == null) {
                Path elsewhere = Paths.get(new String(Files.readAllBytes(pointer), StandardCharsets.UTF_8).strip());
                if (elsewhere.isAbsolute() && elsewhere.toString().getBytes(StandardCharsets.UTF_8).length <= 100) {
                    return elsewhere;
                }
            }
        } catch (IOException | java.nio.file.InvalidPathException e) {
            // no usable pointer
        }
        return own;
    }

    /** Starts {@code shellgate serve} for the run directory, at most once every 10 s across clients. */
    private void startServer() throws IOException {
        Path program = launcherPath();
        if (program == null) {
            throw new IOException("no shellgate launcher was found to start one (give the agent launcher=PATH, or put"
                    + " shellgate next to the agent jar or on PATH)");
        }
        if (!Files.isExecutable(program)) {
            throw new IOException("the shellgate launcher " + program + " cannot be run");
        }
        // one start per JVM every 10 s: the other threads that found no server wait for that one
        long millis = System.currentTimeMillis();
        long last = lastStart.get();
        if (millis - last < 10_000 || !lastStart.compareAndSet(last, millis)) {
            return;
        }
        Path starting = run.resolve("starting");
        long now = millis / 1000;
        try {
            // only a record of this user's: another's could hold every start off
            if (RunDirTrust.problem(starting, false) == null
                    && now - Long.parseLong(Files.readString(starting).trim()) < 10) {
                return;
            }
        } catch (IOException | NumberFormatException e) {
            // no record of a recent start
        }
        if (Files.isDirectory(run)) {
            Files.writeString(starting, now + "\n");
        }
        List<String> command = new ArrayList<>(List.of(program.toString(), "serve"));
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
        env.put("SHELLGATE_RUN_DIR", run.toString());
        Gate.startOwn(pb);
    }

    private Path launcherPath() {
        if (launcher != null) {
            return Path.of(launcher);
        }
        Path jar = OriginInfo.agentJar();
        if (jar != null && Files.isExecutable(jar.resolveSibling("shellgate"))) {
            return jar.resolveSibling("shellgate");
        }
        String path = System.getenv("PATH");
        for (String dir : (path == null ? "" : path).split(":")) {
            if (!dir.isEmpty() && Files.isExecutable(Path.of(dir, "shellgate"))) {
                return Path.of(dir, "shellgate");
            }
        }
        return null;
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

    /** A run directory (or socket) that another user could have put there: no server in it is believed. */
    private static final class Distrusted extends IOException {
        Distrusted(String message) {
            super(message);
        }
    }

    /** No reply within the deadline: the server did get the request, so it is not sent again. */
    private static final class Overdue extends IOException {
        Overdue(long millis) {
            super("the judge server did not answer in " + (millis % 1000 == 0 ? millis / 1000 + " s" : millis + " ms"));
        }
    }

    /** One connection to the server: one request at a time, a reply line read with a deadline. */
    private final class Connection {
        private final SocketChannel channel;
        /** What was read and not taken yet, between position and limit. */
        private final ByteBuffer buffer = ByteBuffer.allocate(8192).flip();
        /** Whether the server keeps the JVM's environment on this connection (its reply named the id). */
        private boolean jvmEnvSent;
        /**
         * When the reply being waited for is overdue; 0 while no request is out, {@link #EXPIRED}
         * once the watch closed the connection for it (set only over the deadline it saw, so a
         * reply that came in meanwhile keeps its connection).
         */
        private final AtomicLong deadline = new AtomicLong();

        Connection(SocketChannel channel) {
            this.channel = channel;
            open.add(this);
        }

        Map<String, Object> roundTrip(JudgeLine line, Map<String, String> env, Path cwd) throws IOException {
            boolean sent = jvmEnvSent;
            Map<String, Object> reply = parse(roundTrip(request(line, env, cwd, sent)));
            if (sent && "unknown-env".equals(reply.get("error"))) {
                // the server no longer has it (it should not happen): send it again
                jvmEnvSent = false;
                reply = parse(roundTrip(request(line, env, cwd, false)));
            }
            // a server that keeps environments says so; an older one is always sent the whole of it
            if (env == jvmEnv && JVM_ENV.equals(reply.get("env-id"))) {
                jvmEnvSent = true;
            }
            return reply;
        }

        /** The reply; one that is not a JSON object is no answer (not retried: the server did judge it). */
        private static Map<String, Object> parse(String text) {
            try {
                return Json.object(text);
            } catch (IllegalArgumentException e) {
                throw new IllegalStateException("the judge server's reply is not a JSON object: " + e.getMessage(), e);
            }
        }

        /** Sends a line that gets no reply (a {@code ran} notice), within the deadline. */
        void send(String notice) throws IOException {
            transfer(notice, false);
        }

        private String roundTrip(String request) throws IOException {
            return transfer(request, true);
        }

        /**
         * Writes a line, and reads the reply line when {@code reply}, within the deadline the watch
         * keeps: the first line within {@code replyMillis}, and after each interim line (a review
         * step the server waits on, docs/protocol.md) within the time it names.
         */
        private String transfer(String line, boolean reply) throws IOException {
            long mine = System.currentTimeMillis() + replyMillis;
            long waited = replyMillis;
            if (!deadline.compareAndSet(0, mine)) {
                // the watch closed it as its last reply came: the request goes on another connection
                throw new ClosedChannelException();
            }
            try {
                ByteBuffer out = ByteBuffer.wrap(line.getBytes(StandardCharsets.UTF_8));
                while (out.hasRemaining()) {
                    channel.write(out);
                }
                if (!reply) {
                    return null;
                }
                for (int interim = 0; ; interim++) {
                    String got = readLine();
                    long seconds = interim < 8 ? pendingSeconds(got) : -1;
                    if (seconds < 0) {
                        return got;
                    }
                    waited = Math.min(seconds * 1000, MAX_WAIT_MILLIS);
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

        /** The seconds an interim line says the next line may take; -1 for any other line. */
        private static long pendingSeconds(String line) {
            if (!line.startsWith("{\"v\":1,\"pending\":")) {
                return -1;
            }
            Object seconds;
            try {
                seconds = Json.object(line).get("seconds");
            } catch (IllegalArgumentException e) {
                return -1;
            }
            return seconds instanceof Number n && n.longValue() >= 0 ? n.longValue() : -1;
        }

        /** The next line; it usually arrives in one read, and is decoded from the buffer, not copied. */
        private String readLine() throws IOException {
            ByteArrayOutputStream longer = null;
            byte[] bytes = buffer.array();
            while (true) {
                int from = buffer.position();
                int to = buffer.limit();
                for (int i = from; i < to; i++) {
                    if (bytes[i] == '\n') {
                        buffer.position(i + 1);
                        if (longer == null) {
                            return new String(bytes, from, i - from, StandardCharsets.UTF_8);
                        }
                        longer.write(bytes, from, i - from);
                        return longer.toString(StandardCharsets.UTF_8);
                    }
                }
                if (to > from) {
                    if (longer == null) {
                        longer = new ByteArrayOutputStream();
                    }
                    longer.write(bytes, from, to - from);
                }
                buffer.clear();
                int n = channel.read(buffer);
                buffer.flip();
                if (n < 0) {
                    throw new IOException("the judge server closed the connection");
                }
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
            try {
                channel.close();
            } catch (IOException e) {
                // closing a broken connection
            }
        }
    }
}
