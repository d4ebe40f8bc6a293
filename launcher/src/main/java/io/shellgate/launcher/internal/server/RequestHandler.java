package io.shellgate.launcher.internal.server;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.shellgate.judge.Dialect;
import io.shellgate.judge.Envelopes;
import io.shellgate.judge.Reason;
import io.shellgate.judge.Span;
import io.shellgate.judge.JudgeRequest;
import io.shellgate.judge.Verdict;
import io.shellgate.launcher.internal.gate.Gatekeepers;
import io.shellgate.launcher.internal.shell.ShellChoice;
import io.shellgate.launcher.internal.shell.ShellResolver;
import io.shellgate.reviewer.Gatekeeper;
import io.shellgate.reviewer.model.Origin;
import io.shellgate.reviewer.People;
import io.shellgate.reviewer.model.Person;
import io.shellgate.reviewer.Result;
import io.shellgate.reviewer.model.Step;
import io.shellgate.rules.FileFacts;
import io.shellgate.rules.Policy;
import io.shellgate.rules.PolicyException;
import io.shellgate.rules.Tier;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;

/**
 * Answers one protocol request: {@code judge} (resolving the shell when the client asks), the
 * {@code ran} notice, or {@code ping}, through the gate of the client's configuration. Every
 * failure is an error reply; nothing here can produce an allow by accident.
 */
public final class RequestHandler {

    private static final System.Logger LOG = System.getLogger(RequestHandler.class.getName());
    /** The most start times one {@code ran} notice may carry. */
    static final int MAX_RAN_TIMES = 100_000;
    /** The most reusable allows remembered for {@code ran} notices; past it all are forgotten (a notice naming one is judged now). */
    static final int MAX_REUSABLE = 4096;

    /** An allow offered for reuse, by its token: a {@code ran} notice logs the starts with this verdict. */
    private record Reusable(JudgeRequest request, Verdict verdict) {}

    private final Map<String, Reusable> reusable = new ConcurrentHashMap<>();
    private final AtomicLong tokens = new AtomicLong();
    private final Gatekeepers gates;
    private final HookRequests hooks;
    private final BatchRequests batches;
    private final String self;
    /** The server's {@code server.pid}, whose identity names this server in {@code recheck} facts; null: none offered. */
    private final Path serverFile;

    /**
     * @param self the launcher, which the shell fallback never picks
     * @param serverFile the server's {@code server.pid}, for {@code recheck}; null offers no reusable allows
     */
    public RequestHandler(Gatekeepers gates, String self, Path serverFile) {
        this.gates = gates;
        this.hooks = new HookRequests(gates);
        this.batches = new BatchRequests(gates);
        this.self = self;
        this.serverFile = serverFile;
    }

    /**
     * What one connection's earlier requests leave behind for its later ones: the environment last
     * sent with an {@code env-id}, and how to tell that its client went away. Used by one thread.
     */
    public static final class Connection {
        private String envId;
        private Map<String, String> env;
        private BooleanSupplier clientGone = () -> false;
        private java.util.function.Consumer<ObjectNode> interim = line -> { };
        private io.shellgate.launcher.internal.server.BatchLines batch;

        /** The batch a {@code batch} request started, once: the connection carries its lines from now on. */
        io.shellgate.launcher.internal.server.BatchLines takeBatch() {
            io.shellgate.launcher.internal.server.BatchLines b = batch;
            batch = null;
            return b;
        }

        /** How to tell, while a request waits for a person, that the client closed the connection. */
        public void clientGone(BooleanSupplier gone) {
            this.clientGone = gone;
        }

        /** How to send the client an interim line (a review step it waits on) before the reply. */
        public void interim(java.util.function.Consumer<ObjectNode> send) {
            this.interim = send;
        }

        /**
         * What tells a client that asked for interim lines ({@code "interim": true}) which review
         * step it waits on and for how long at most: a line {@code {"v":1,"pending":"llm"|"person",
         * "seconds":N}} before the reply (docs/protocol.md). Null for a client that did not ask.
         */
        io.shellgate.reviewer.model.ReviewRequest.Progress progress(JsonNode request) {
            if (!request.path("interim").asBoolean(false)) {
                return null;
            }
            // whole seconds, rounded up, and more: after the LLM step the approvals desk may take
            // 3 s to say whether anyone watches, before the person step's own line goes out
            return (step, atMost) -> pending(step.id(), (atMost.toMillis() + 999) / 1000 + 5);
        }

        /** Sends the interim line of a step that may take up to {@code seconds} (see {@link #progress}). */
        public void pending(String step, long seconds) {
            ObjectNode line = Protocol.object();
            line.put("v", Protocol.VERSION);
            line.put("pending", step);
            line.put("seconds", seconds);
            interim.accept(line);
        }

        Map<String, String> kept(String id) {
            return id.equals(envId) ? env : null;
        }

        /** The environment as kept for later requests on the connection, when it came with an id. */
        Map<String, String> keep(String id, Map<String, String> given) {
            Map<String, String> copy = Map.copyOf(given);
            if (id != null) {
                envId = id;
                env = copy;
            }
            return copy;
        }
    }

    /**
     * The reply to a {@code batch} request; when it is {@code {"v":1,"batch":true}}, the connection's
     * {@link Connection#takeBatch} holds the batch to run on the rest of the connection.
     */
    ObjectNode batch(JsonNode request, Connection connection) {
        return switch (batches.start(request)) {
            case BatchRequests.Start.Refused r -> r.reply();
            case BatchRequests.Start.Lines l -> {
                connection.batch = l.lines();
                yield BatchRequests.started();
            }
        };
    }

    /** A request on a connection of its own (no {@code ran} notice: it has no reply). */
    public ObjectNode handle(JsonNode request) {
        if (request != null && "ran".equals(Protocol.text(request, "op"))) {
            return Protocol.error("bad-request", "ran is a notice to the judge server, which does not reply to it");
        }
        return handle(request, new Connection());
    }

    /** The reply to a request on {@code connection}; null for a {@code ran} notice, which gets none. */
    public ObjectNode handle(JsonNode request, Connection connection) {
        if (request == null || !request.isObject()) {
            return Protocol.error("bad-request", "a request is one JSON object");
        }
        JsonNode v = request.get("v");
        if (v == null || !v.isInt() || v.asInt() != Protocol.VERSION) {
            return Protocol.error("unsupported-version", "this server speaks protocol version " + Protocol.VERSION);
        }
        String op = Protocol.text(request, "op");
        if ("ping".equals(op)) {
            ObjectNode out = Protocol.object();
            out.put("v", Protocol.VERSION);
            out.put("pong", true);
            out.put("pid", ProcessHandle.current().pid());
            return out;
        }
        if ("hook".equals(op)) {
            return hooks.reply(request, connection.clientGone, connection.progress(request));
        }
        boolean ran = "ran".equals(op);
        if (!"judge".equals(op) && !ran) {
            return Protocol.error("bad-request", "unknown op " + op + "; use judge, ran, hook, batch or ping");
        }
        try {
            ObjectNode reply = judge(request, connection, ran);
            return !ran ? reply : reply != null && reply.has("error") ? notLogged(reply.path("message").asText()) : null;
        } catch (JudgeFields.Bad e) {
            return ran ? notLogged(e.getMessage()) : e.reply;
        } catch (RuntimeException e) {
            return ran ? notLogged(e.toString()) : Protocol.error("internal", "the request could not be judged: " + e);
        }
    }

    /** A {@code ran} notice that could not be logged: said in the server's log, since the notice gets no reply. */
    private static ObjectNode notLogged(String why) {
        LOG.log(System.Logger.Level.WARNING, "the starts of a ran notice are missing from the audit log: {0}", why);
        return null;
    }

    private ObjectNode judge(JsonNode request, Connection connection, boolean ran) throws JudgeFields.Bad {
        JudgeFields f = JudgeFields.read(request, connection);
        Gatekeeper gate = gates.forEnvironment(f.gateEnv());
        boolean review = request.path("review").asBoolean(false);
        Origin origin = JudgeFields.origin(request.get("origin"));
        if ((review || ran) && origin == null) {
            throw new JudgeFields.Bad("\"origin\" must be an object with \"entry\" (shell-c, stdin-session, pty, javaagent"
                    + " or hook)");
        }
        ShellChoice shell = null;
        Dialect dialect = Dialect.BASH;
        String dialectText = Protocol.text(request, "dialect");
        if (f.argv() == null && dialectText != null) {
            dialect = Dialect.parse(dialectText);
            if (dialect == null) {
                throw new JudgeFields.Bad("\"dialect\" must be bash, zsh, sh, powershell or cmd");
            }
        } else if (f.argv() == null) {
            Policy policy;
            try {
                policy = gate.policy(f.cwd());
            } catch (PolicyException e) {
                if (review && !ran) {
                    // judged through the gate all the same, so that the refusal is logged
                    gate.decide(request(f, Dialect.BASH, request), origin, People.none());
                }
                return Protocol.error("policy", String.join("\n", e.problems()));
            }
            String asked = Protocol.text(request, "shell");
            Optional<ShellChoice> chosen = new ShellResolver(ShellResolver.Host.current(f.env()))
                    .resolve(asked, policy.settings().shell(), self);
            if (chosen.isEmpty()) {
                return Protocol.error("no-shell", asked != null && !asked.isBlank()
                        ? "the shell " + asked + " (--shell) is not an executable file or a program on PATH"
                        : "no shell found to run the command (tried $SHELLGATE_SHELL, the policy's shell setting, $SHELL, "
                                + "zsh, bash and sh on PATH)");
            }
            shell = chosen.get();
            dialect = shell.dialect();
        }
        JudgeRequest judged = request(f, dialect, request);
        Verdict probe = null;
        String agent = Protocol.text(request, "agent");
        if (agent != null && f.argv() == null) {
            // the agent's own wrapper around the model's command: the command inside is judged, and
            // a start-up probe of the agent's runs as it is (see docs/envelopes.md)
            Optional<Envelopes.Unwrapped> envelope = Envelopes.unwrap(agent, judged);
            if (envelope.isPresent() && envelope.get().isProbe()) {
                probe = new Verdict(Tier.ALLOW, List.of(new Reason("agent-probe", Tier.ALLOW, "a start-up probe of " + agent
                        + " in its exact known form (" + envelope.get().envelope() + ")", Span.NONE)), List.of());
            } else if (envelope.isPresent()) {
                judged = envelope.get().inner();
            }
        }
        boolean brief = request.path("brief").asBoolean(false);
        if (ran) {
            long[] times = JudgeFields.startTimes(request, MAX_RAN_TIMES);
            if (times == null) {
                throw new JudgeFields.Bad("\"times\" must be an array of at most " + MAX_RAN_TIMES
                        + " start times (milliseconds since the epoch)");
            }
            // starts on a reused allow are logged with the verdict they were made on, not one reached
            // now (a file may have changed since); one this server does not know is judged now
            Reusable known = reusable.get(String.valueOf(Protocol.text(request, "token")));
            Verdict made = known != null && known.request().equals(judged) ? known.verdict() : probe;
            String warning = gate.ran(judged, made, origin, times);
            return warning == null ? null : Protocol.error("internal", warning);
        }
        ObjectNode reply;
        if (!review) {
            try {
                reply = Protocol.verdict(probe != null ? probe : gate.judge(judged), shell, brief);
            } catch (PolicyException e) {
                return Protocol.error("policy", String.join("\n", e.problems()));
            }
        } else {
            Result result = gate.decide(judged, probe, origin, person(request), connection.clientGone,
                    connection.progress(request));
            reply = reply(result, shell, brief);
            if (result instanceof Result.Runs runs && runs.step() == Step.JUDGE && request.path("recheck").asBoolean(false)) {
                recheck(reply, gate, judged, runs.verdict());
            }
            if (result.warning() != null) {
                reply.put("warning", result.warning());
            }
        }
        if (f.envId() != null) {
            // the client may name this environment by its id alone in later requests
            reply.put("env-id", f.envId());
        }
        return reply;
    }

    private static JudgeRequest request(JudgeFields f, Dialect dialect, JsonNode request) {
        if (f.argv() != null) {
            // no shell reads it: the vector is judged as it is, and no shell is chosen
            return JudgeRequest.ofArgv(f.argv(), f.cwd(), f.env());
        }
        JsonNode fresh = request.get("fresh");
        return new JudgeRequest(f.cmd(), dialect, f.cwd(), f.env(), f.positional(), fresh == null || fresh.asBoolean(true));
    }

    /** The reply to a reviewed request: the verdict's first fields, then whether it runs, which step decided, and why. */
    private static ObjectNode reply(Result result, ShellChoice shell, boolean brief) {
        return switch (result) {
            case Result.PolicyBroken p -> Protocol.error("policy", String.join("\n", p.problems()));
            case Result.Refused r when r.step() == Step.GATE -> Protocol.refusal(r, shell);
            case Result.Refused r when r.verdict() == null -> Protocol.error("internal", r.message());
            case Result.Refused r -> Protocol.reviewed(r.verdict(), shell, brief, false, r.step(), r.message());
            case Result.Runs r -> Protocol.reviewed(r.verdict(), shell, brief, true, r.step(), r.message());
        };
    }

    /** The terminal the client named for questions: only a terminal device, never any other file. */
    private static Person person(JsonNode request) {
        if (!request.path("wait").asBoolean(true)) {
            // the client asks its own user (an agent's hook): an open ask is handed back at once
            return People.agentsOwnUser();
        }
        String tty = Protocol.text(request, "tty");
        if (tty != null && (tty.startsWith("/dev/pts/") || tty.startsWith("/dev/tty")) && !tty.contains("..")) {
            return People.terminal(tty);
        }
        return People.none();
    }

    /**
     * Adds {@code recheck} to an allow's reply: the file facts the allow rests on, the policy files'
     * and the judge's, for a client that reuses the allow while each fact gets its answer again,
     * and the token its {@code ran} notices name it by; left out when no facts capture it.
     */
    private void recheck(ObjectNode reply, Gatekeeper gate, JudgeRequest judged, Verdict v) {
        if (serverFile == null) {
            return;
        }
        // a server started later (another version, other settings) has another server.pid
        String server = FileFacts.identity(serverFile);
        List<FileFacts.Fact> rests = server.isEmpty() ? null : gate.facts(judged);
        if (rests == null) {
            return;
        }
        if (reusable.size() >= MAX_REUSABLE) {
            reusable.clear();
        }
        String token = Long.toString(tokens.incrementAndGet());
        reusable.put(token, new Reusable(judged, v));
        ObjectNode recheck = reply.putObject("recheck");
        recheck.put("token", token);
        ArrayNode facts = recheck.putArray("facts");
        facts.addArray().add("identity").add(serverFile.toString()).add(server);
        for (FileFacts.Fact fact : rests) {
            facts.addArray().add(fact.op()).add(fact.path()).add(fact.answer());
        }
    }
}
