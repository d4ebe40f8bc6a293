package io.shellgate.launcher.internal.server;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.shellgate.judge.Dialect;
import io.shellgate.judge.JudgeRequest;
import io.shellgate.judge.Verdict;

import io.shellgate.reviewer.Decision;
import io.shellgate.reviewer.Gates;
import io.shellgate.reviewer.EntryPoint;
import io.shellgate.reviewer.Origin;
import io.shellgate.reviewer.Person;
import io.shellgate.reviewer.People;
import io.shellgate.reviewer.ReviewRequest;
import io.shellgate.launcher.internal.shell.ShellChoice;
import io.shellgate.launcher.internal.shell.ShellResolver;
import io.shellgate.rules.PolicyException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Answers one protocol request: {@code judge} (resolving the shell when the client asks) or
 * {@code ping}. Every failure is an error reply; nothing here can produce an allow by accident.
 */
public final class RequestHandler {

    private final JudgeProvider judges;
    private final String self;

    private final Person localPerson;

    /**
     * @param localPerson who to ask when a request names no terminal: the person at this
     *     process's own terminal for a client judging in-process; null for the server
     */
    public RequestHandler(JudgeProvider judges, String self, Person localPerson) {
        this.judges = judges;
        this.self = self;
        this.localPerson = localPerson;
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

    /** A request on a connection of its own. */
    public ObjectNode handle(JsonNode request) {
        return handle(request, new Connection());
    }

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
        if (!"judge".equals(op)) {
            return Protocol.error("bad-request", "unknown op " + op + "; use judge or ping");
        }
        try {
            return judge(request, connection);
        } catch (PolicyException e) {
            return Protocol.error("policy", String.join("\n", e.problems()));
        } catch (RuntimeException e) {
            return Protocol.error("internal", "the request could not be judged: " + e);
        }
    }

    private static Origin origin(JsonNode node) {
        if (node == null || !node.isObject()) {
            return null;
        }
        EntryPoint entry = EntryPoint.parse(node.path("entry").asText(""));
        return entry == null ? null
                : new Origin(entry, node.path("pid").asLong(0), node.path("detail").asText(""), node.path("session").asText(""));
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

    private ObjectNode judge(JsonNode request, Connection connection) throws PolicyException {
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
        Verdict v = loaded.judge().judge(judged);
        JsonNode brief = request.get("brief");
        ObjectNode reply = Protocol.verdict(v, shell, brief != null && brief.asBoolean(false));
        JsonNode review = request.get("review");
        if (review != null && review.asBoolean(false)) {
            Origin origin = origin(request.get("origin"));
            if (origin == null) {
                return Protocol.error("bad-request", "\"origin\" must be an object with \"entry\" (shell-c, stdin-session, pty,"
                        + " javaagent or hook)");
            }
            Decision d = loaded.reviewer().review(new ReviewRequest(judged, v, origin, person(request),
                    request.path("wait").asBoolean(true)));
            Protocol.decision(reply, d);
        }
        if (envId != null) {
            // the client may name this environment by its id alone in later requests
            reply.put("env-id", envId);
        }
        return reply;
    }
}
