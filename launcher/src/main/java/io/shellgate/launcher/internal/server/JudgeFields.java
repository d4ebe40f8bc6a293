package io.shellgate.launcher.internal.server;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.shellgate.reviewer.model.EntryPoint;
import io.shellgate.reviewer.model.Origin;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The fields of a {@code judge} request or {@code ran} notice, read and checked (docs/protocol.md):
 * what the command is, where and in which environment it runs, and the environment its gate was
 * started with (what its policies, review settings and audit log come from).
 *
 * @param gateEnv {@code settings-env} when given, else {@code env}
 */
record JudgeFields(String cmd, List<String> argv, Path cwd, Map<String, String> env, Map<String, String> gateEnv,
        String envId, List<String> positional) {

    /** A request that cannot be read: the error reply to send. */
    static final class Bad extends Exception {
        private static final long serialVersionUID = 1L;
        final transient ObjectNode reply;

        Bad(ObjectNode reply) {
            super(reply.path("message").asText(), null, false, false);
            this.reply = reply;
        }

        Bad(String message) {
            this(Protocol.error("bad-request", message));
        }
    }

    static JudgeFields read(JsonNode request, RequestHandler.Connection connection) throws Bad {
        String cmd = Protocol.text(request, "cmd");
        List<String> argv = null;
        JsonNode argvNode = request.get("argv");
        if (argvNode != null && !argvNode.isNull()) {
            if (!argvNode.isArray() || argvNode.isEmpty()) {
                throw new Bad("\"argv\" must be a non-empty array of strings");
            }
            argv = new ArrayList<>();
            for (JsonNode a : argvNode) {
                if (!a.isTextual()) {
                    throw new Bad("\"argv\" must be a non-empty array of strings");
                }
                argv.add(a.asText());
            }
        } else if (cmd == null) {
            throw new Bad("\"cmd\" (a string) or \"argv\" (an array of strings) is required");
        }
        String cwdText = Protocol.text(request, "cwd");
        if (cwdText == null || !cwdText.startsWith("/")) {
            throw new Bad("\"cwd\" (an absolute path) is required");
        }
        Path cwd = Path.of(cwdText).normalize();
        if (!Files.isDirectory(cwd)) {
            throw new Bad("\"cwd\" " + cwd + " is not a directory");
        }
        String envId = Protocol.text(request, "env-id");
        Map<String, String> env = env(request, envId, connection);
        Map<String, String> gateEnv = env;
        JsonNode settings = request.get("settings-env");
        if (settings != null && !settings.isNull()) {
            if (settings.isTextual()) {
                gateEnv = connection.kept(settings.asText());
                if (gateEnv == null) {
                    throw unknownEnv(settings.asText());
                }
            } else if (settings.isObject()) {
                gateEnv = strings(settings, "settings-env");
            } else {
                throw new Bad("\"settings-env\" must be an object of strings or the id of an environment");
            }
        }
        List<String> positional = null;
        JsonNode pos = request.get("positional");
        if (pos != null && !pos.isNull()) {
            if (!pos.isArray()) {
                throw new Bad("\"positional\" must be an array of strings");
            }
            positional = new ArrayList<>();
            for (JsonNode p : pos) {
                positional.add(p.asText());
            }
        }
        return new JudgeFields(cmd, argv, cwd, env, gateEnv, envId, positional);
    }

    private static Map<String, String> env(JsonNode request, String envId, RequestHandler.Connection connection) throws Bad {
        JsonNode envNode = request.get("env");
        JsonNode environ = request.get("environ");
        if (envNode == null && environ == null && envId != null) {
            Map<String, String> kept = connection.kept(envId);
            if (kept == null) {
                throw unknownEnv(envId);
            }
            return kept;
        }
        Map<String, String> env = new HashMap<>();
        if (envNode == null && environ != null && environ.isArray()) {
            // the raw environment, NAME=VALUE entries; as getenv does, the first of a name counts
            for (JsonNode e : environ) {
                if (!e.isTextual()) {
                    throw new Bad("\"environ\" must be an array of NAME=VALUE strings");
                }
                String entry = e.asText();
                int eq = entry.indexOf('=');
                if (eq > 0) {
                    env.putIfAbsent(entry.substring(0, eq), entry.substring(eq + 1));
                }
            }
        } else if (envNode == null || !envNode.isObject()) {
            throw new Bad("\"env\" (an object of strings, the complete environment) is required");
        } else {
            env = strings(envNode, "env");
        }
        return connection.keep(envId, env);
    }

    private static Map<String, String> strings(JsonNode object, String field) throws Bad {
        Map<String, String> into = new HashMap<>();
        for (Map.Entry<String, JsonNode> e : object.properties()) {
            if (!e.getValue().isTextual()) {
                throw new Bad("\"" + field + "\"." + e.getKey() + " must be a string");
            }
            into.put(e.getKey(), e.getValue().asText());
        }
        return into;
    }

    private static Bad unknownEnv(String id) {
        return new Bad(Protocol.error("unknown-env", "no environment named \"" + id + "\" was sent on this connection"));
    }

    /** The request's {@code origin}, or null when it has none that names an entry point. */
    static Origin origin(JsonNode node) {
        if (node == null || !node.isObject()) {
            return null;
        }
        EntryPoint entry = EntryPoint.parse(node.path("entry").asText(""));
        return entry == null ? null
                : new Origin(entry, node.path("pid").asLong(0), node.path("detail").asText(""), node.path("session").asText(""));
    }

    /** A {@code ran} notice's start times; now when it has none; null when they are malformed. */
    static long[] startTimes(JsonNode request, int max) {
        JsonNode times = request.get("times");
        if (times == null || times.isNull()) {
            return new long[] {System.currentTimeMillis()};
        }
        if (!times.isArray() || times.isEmpty() || times.size() > max) {
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
}
