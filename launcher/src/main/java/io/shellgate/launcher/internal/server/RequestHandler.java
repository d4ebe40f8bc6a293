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

import io.shellgate.reviewer.Decision;
import io.shellgate.reviewer.Gates;
import io.shellgate.reviewer.EntryPoint;
import io.shellgate.reviewer.Origin;
import io.shellgate.reviewer.Person;
import io.shellgate.reviewer.People;
import io.shellgate.reviewer.ReviewRequest;
import io.shellgate.reviewer.Step;
import io.shellgate.rules.FileFacts;
import io.shellgate.launcher.internal.shell.ShellChoice;
import io.shellgate.launcher.internal.shell.ShellResolver;
import io.shellgate.rules.PolicyException;
import io.shellgate.rules.Tier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Answers one protocol request: {@code judge} (resolving the shell when the client asks) or
 * {@code ping}. Every failure is an error reply; nothing here can produce an allow by accident.
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

    private final JudgeProvider judges;
    private final HookRequests hooks;
    private final String self;

    private final Person localPerson;
    /** The server's {@code server.pid}, whose identity names this server in {@code recheck} facts; null: none offered. */
    private final Path serverFile;

    /**
     * @param localPerson who to ask when a request names no terminal: the person at this
     *     process's own terminal for a client judging in-process; null for the server
     */
    public RequestHandler(JudgeProvider judges, String self, Person localPerson) {
        this(judges, self, localPerson, null);
    }

    /**
     * A handler that offers reusable allows ({@code recheck}) to clients of the server whose
     * {@code server.pid} is {@code serverFile}.
     */
    public RequestHandler(JudgeProvider judges, String self, Person localPerson, Path serverFile) {
        this.judges = judges;
        this.hooks = new HookRequests(judges);
        this.self = self;
        this.localPerson = localPerson;
        this.serverFile = serverFile;
    }

    /**
     * What one connection's earlier requests leave behind for its later ones: the environment
     * last sent with an {@code env-id}, which a later request naming that id without an
     * environment is judged in. Used by one thread.
     */
    public static final class Connection {
        private String envId;
        private Map<String, String> env;
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
            return hooks.reply(request);
        }
        boolean ran = "ran".equals(op);
        if (!"judge".equals(op) && !ran) {
            return Protocol.error("bad-request", "unknown op " + op + "; use judge, ran, hook or ping");
        }
        try {
            ObjectNode reply = judge(request, connection, ran);
            return !ran ? reply : reply.has("error") ? notLogged(reply.path("message").asText()) : null;
        } catch (PolicyException e) {
            return ran ? notLogged(String.join("; ", e.problems())) : Protocol.error("policy", String.join("\n", e.problems()));
        } catch (RuntimeException e) {
            return ran ? notLogged(e.toString()) : Protocol.error("internal", "the request could not be judged: " + e);
        }
    }

    /** A {@code ran} notice that could not be logged: said in the server's log, since the notice gets no reply. */
    private static ObjectNode notLogged(String why) {
        LOG.log(System.Logger.Level.WARNING, "the starts of a ran notice are missing from the audit log: {0}", why);
        return null;
    }

    private static Origin origin(JsonNode node) {
        if (node == null || !node.isObject()) {
            return null;
        }
        EntryPoint entry = EntryPoint.parse(node.path("entry").asText(""));
        return entry == null ? null
                : new Origin(entry, node.path("pid").asLong(0), node.path("detail").asText(""), node.path("session").asText(""));
    }

    /**
     * Adds {@code recheck} to an allow's reply: the file facts the allow rests on, the policy files'
     * and the judge's, for a client that reuses the allow while each fact gets its answer again,
     * and the token its {@code ran} notices name it by; left out when no facts capture it.
     */
    private void recheck(ObjectNode reply, Gates.Gate loaded, JudgeRequest judged, Verdict v, Path cwd,
            Map<String, String> settings) {
        if (serverFile == null) {
            return;
        }
        // a server started later (another version, other settings) has another server.pid
        String server = FileFacts.identity(serverFile);
        List<FileFacts.Fact> rests = server.isEmpty() ? null : judges.facts(cwd, settings, loaded, judged);
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
        for (FileFacts.Fact f : rests) {
            facts.addArray().add(f.op()).add(f.path()).add(f.answer());
        }
    }

    /** A {@code ran} notice's start times; now when it has none; null when they are malformed. */
    private static long[] startTimes(JsonNode request) {
        JsonNode times = request.get("times");
        if (times == null || times.isNull()) {
            return new long[] {System.currentTimeMillis()};
        }
        if (!times.isArray() || times.isEmpty() || times.size() > MAX_RAN_TIMES) {
            return null;
        }
        long[] out = new long[times.size()];
        for (int i = 0; i < out.length; i++) {
            JsonNode t = times.get(i);
            if (!t.canConvertToLong() || !t.isIntegralNumber() || t.asLong() <= 0) {
                return null;
            }
            out[i] = t.asLong();
        }
        return out;
    }

    /** The terminal the client named for questions: only a terminal device, never any other file. */
    private Person person(JsonNode request) {
        String tty = Protocol.text(request, "tty");
        if (tty != null && (tty.startsWith("/dev/pts/") || tty.startsWith("/dev/tty")) && !tty.contains("..")) {
            return People.terminal(tty);
        }
        return localPerson;
    }

    /** The environment as kept for later requests on the connection, when it came with an id. */
    private static Map<String, String> remember(Connection connection, String envId, Map<String, String> env) {
        Map<String, String> kept = Map.copyOf(env);
        if (envId != null) {
            connection.envId = envId;
            connection.env = kept;
        }
        return kept;
    }

    /** The environment kept on the connection under {@code id}, or null when none is. */
    private static Map<String, String> kept(Connection connection, String id) {
        return id.equals(connection.envId) ? connection.env : null;
    }

    private static ObjectNode unknownEnv(String id) {
        return Protocol.error("unknown-env", "no environment named \"" + id + "\" was sent on this connection");
    }

    /** Puts the strings of {@code object} (the request's {@code field}) into {@code into}; the error reply when one is not a string. */
    private static ObjectNode strings(JsonNode object, String field, Map<String, String> into) {
        for (Map.Entry<String, JsonNode> e : object.properties()) {
            if (!e.getValue().isTextual()) {
                return Protocol.error("bad-request", "\"" + field + "\"." + e.getKey() + " must be a string");
            }
            into.put(e.getKey(), e.getValue().asText());
        }
        return null;
    }

    /**
     * A {@code judge} request's reply; for a {@code ran} notice ({@code ran}), the command is
     * judged again and logged as started, and the reply is not sent.
     */
    private ObjectNode judge(JsonNode request, Connection connection, boolean ran) throws PolicyException {
        String cmd = Protocol.text(request, "cmd");
        String cwdText = Protocol.text(request, "cwd");
        JsonNode envNode = request.get("env");
        List<String> argv = null;
        JsonNode argvNode = request.get("argv");
        if (argvNode != null && !argvNode.isNull()) {
            if (!argvNode.isArray() || argvNode.isEmpty()) {
                return Protocol.error("bad-request", "\"argv\" must be a non-empty array of strings");
            }
            argv = new ArrayList<>();
            for (JsonNode a : argvNode) {
                if (!a.isTextual()) {
                    return Protocol.error("bad-request", "\"argv\" must be a non-empty array of strings");
                }
                argv.add(a.asText());
            }
        } else if (cmd == null) {
            return Protocol.error("bad-request", "\"cmd\" (a string) or \"argv\" (an array of strings) is required");
        }
        if (cwdText == null || !cwdText.startsWith("/")) {
            return Protocol.error("bad-request", "\"cwd\" (an absolute path) is required");
        }
        Path cwd = Path.of(cwdText).normalize();
        if (!Files.isDirectory(cwd)) {
            return Protocol.error("bad-request", "\"cwd\" " + cwd + " is not a directory");
        }
        Map<String, String> env = new HashMap<>();
        JsonNode environ = request.get("environ");
        String envId = Protocol.text(request, "env-id");
        if (envNode == null && environ == null && envId != null) {
            env = kept(connection, envId);
            if (env == null) {
                return unknownEnv(envId);
            }
        } else if (envNode == null && environ != null && environ.isArray()) {
            // the raw environment, NAME=VALUE entries; as getenv does, the first of a name counts
            for (JsonNode e : environ) {
                if (!e.isTextual()) {
                    return Protocol.error("bad-request", "\"environ\" must be an array of NAME=VALUE strings");
                }
                String entry = e.asText();
                int eq = entry.indexOf('=');
                if (eq > 0) {
                    env.putIfAbsent(entry.substring(0, eq), entry.substring(eq + 1));
                }
            }
            env = remember(connection, envId, env);
        } else if (envNode == null || !envNode.isObject()) {
            return Protocol.error("bad-request", "\"env\" (an object of strings, the complete environment) is required");
        } else {
            ObjectNode bad = strings(envNode, "env", env);
            if (bad != null) {
                return bad;
            }
            env = remember(connection, envId, env);
        }
        Map<String, String> settings = env;
        JsonNode settingsNode = request.get("settings-env");
        if (settingsNode != null && !settingsNode.isNull()) {
            if (settingsNode.isTextual()) {
                settings = kept(connection, settingsNode.asText());
                if (settings == null) {
                    return unknownEnv(settingsNode.asText());
                }
            } else if (settingsNode.isObject()) {
                settings = new HashMap<>();
                ObjectNode bad = strings(settingsNode, "settings-env", settings);
                if (bad != null) {
                    return bad;
                }
            } else {
                return Protocol.error("bad-request", "\"settings-env\" must be an object of strings or the id of an environment");
            }
        }
        List<String> positional = null;
        JsonNode pos = request.get("positional");
        if (pos != null && !pos.isNull()) {
            if (!pos.isArray()) {
                return Protocol.error("bad-request", "\"positional\" must be an array of strings");
            }
            positional = new ArrayList<>();
            for (JsonNode p : pos) {
                positional.add(p.asText());
            }
        }
        JsonNode fresh = request.get("fresh");
        // the policies and the review's settings are the user's, where the client says they are
        Gates.Gate loaded = judges.load(cwd, settings);
        ShellChoice shell = null;
        Dialect dialect;
        String dialectText = Protocol.text(request, "dialect");
        if (argv != null) {
            // no shell reads it: the vector is judged as it is, and no shell is chosen
            dialect = Dialect.BASH;
        } else if (dialectText != null) {
            dialect = Dialect.parse(dialectText);
            if (dialect == null) {
                return Protocol.error("bad-request", "\"dialect\" must be bash, zsh, sh, powershell or cmd");
            }
        } else {
            String asked = Protocol.text(request, "shell");
            Optional<ShellChoice> chosen = new ShellResolver(ShellResolver.Host.current(env))
                    .resolve(asked, loaded.policy().settings().shell(), self);
            if (chosen.isEmpty()) {
                return Protocol.error("no-shell", asked != null && !asked.isBlank()
                        ? "the shell " + asked + " (--shell) is not an executable file or a program on PATH"
                        : "no shell found to run the command (tried $SHELLGATE_SHELL, the policy's shell setting, $SHELL, "
                                + "zsh, bash and sh on PATH)");
            }
            shell = chosen.get();
            dialect = shell.dialect();
        }
        JudgeRequest judged = argv != null ? JudgeRequest.ofArgv(argv, cwd, env)
                : new JudgeRequest(cmd, dialect, cwd, env, positional, fresh == null || fresh.asBoolean(true));
        // starts on a reused allow are logged with the verdict they were made on, not one reached
        // now (a file may have changed since); one this server does not know is judged now
        Reusable known = ran ? reusable.get(String.valueOf(Protocol.text(request, "token"))) : null;
        Verdict v = null;
        String agent = Protocol.text(request, "agent");
        if (agent != null && argv == null && known == null) {
            // the agent's own wrapper around the model's command: the command inside is judged, and
            // a start-up probe of the agent's runs as it is (see docs/envelopes.md)
            Optional<Envelopes.Unwrapped> envelope = Envelopes.unwrap(agent, judged);
            if (envelope.isPresent() && envelope.get().isProbe()) {
                v = new Verdict(Tier.ALLOW, List.of(new Reason("agent-probe", Tier.ALLOW, "a start-up probe of " + agent
                        + " in its exact known form (" + envelope.get().envelope() + ")", Span.NONE)), List.of());
            } else if (envelope.isPresent()) {
                judged = envelope.get().inner();
            }
        }
        if (v == null) {
            v = known != null && known.request().equals(judged) ? known.verdict() : loaded.judge().judge(judged);
        }
        JsonNode brief = request.get("brief");
        ObjectNode reply = Protocol.verdict(v, shell, brief != null && brief.asBoolean(false));
        JsonNode review = request.get("review");
        if (review != null && review.asBoolean(false)) {
            Origin origin = origin(request.get("origin"));
            if (origin == null) {
                return Protocol.error("bad-request", "\"origin\" must be an object with \"entry\" (shell-c, stdin-session, pty,"
                        + " javaagent or hook)");
            }
            ReviewRequest r = new ReviewRequest(judged, v, origin, person(request), request.path("wait").asBoolean(true));
            Decision d;
            if (ran) {
                long[] times = startTimes(request);
                if (times == null) {
                    return Protocol.error("bad-request", "\"times\" must be an array of at most " + MAX_RAN_TIMES
                            + " start times (milliseconds since the epoch)");
                }
                d = loaded.reviewer().ran(r, times);
            } else {
                d = loaded.reviewer().review(r);
            }
            Protocol.decision(reply, d);
            if (!ran && d.step() == Step.JUDGE && d.runs() && request.path("recheck").asBoolean(false)) {
                recheck(reply, loaded, judged, v, cwd, settings);
            }
        }
        if (envId != null) {
            // the client may name this environment by its id alone in later requests
            reply.put("env-id", envId);
        }
        return reply;
    }
}
