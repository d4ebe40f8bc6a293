package io.shellgate.launcher.internal.server;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.shellgate.judge.Dialect;
import io.shellgate.launcher.internal.gate.Gatekeepers;
import io.shellgate.rules.PolicyException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

/**
 * The {@code batch} request: {@code shellgate check --batch} through the judge server. The request
 * names what the client's own JVM would have judged with (its working directory, dialect and
 * environment); after the reply {@code {"v":1,"batch":true}} the connection carries the batch's
 * input lines one way and its output lines the other, byte for byte what the client's own JVM
 * would print, then one NUL byte when every line is answered (docs/protocol.md).
 */
final class BatchRequests {

    /** The byte after the last answer: a connection that ends without it ended early. */
    static final int END = 0;

    private final Gatekeepers gates;

    BatchRequests(Gatekeepers gates) {
        this.gates = gates;
    }

    /** The batch a request asks for, or the error reply that refuses it. */
    sealed interface Start {
        record Lines(BatchLines lines) implements Start {}

        record Refused(ObjectNode reply) implements Start {}
    }

    Start start(JsonNode request) {
        if (gates.hasExplicitPolicy()) {
            // a client's own JVM would not apply it: its output would not be the same
            return refused("bad-request", "this server applies serve --policy to every request; judge the batch in a JVM of its own");
        }
        String cwdText = Protocol.text(request, "cwd");
        if (cwdText == null || !cwdText.startsWith("/")) {
            return refused("bad-request", "\"cwd\" (an absolute path) is required");
        }
        Path cwd = Path.of(cwdText).normalize();
        if (!Files.isDirectory(cwd)) {
            return refused("bad-request", "\"cwd\" " + cwd + " is not a directory");
        }
        String dialectText = Protocol.text(request, "dialect");
        Dialect dialect = dialectText == null ? Dialect.BASH : Dialect.parse(dialectText);
        if (dialect == null) {
            return refused("bad-request", "\"dialect\" must be bash, zsh, sh, powershell or cmd");
        }
        JsonNode envNode = request.get("env");
        if (envNode == null || !envNode.isObject()) {
            return refused("bad-request", "\"env\" (the client's environment, an object of strings) is required");
        }
        Map<String, String> env = new HashMap<>();
        for (Map.Entry<String, JsonNode> f : envNode.properties()) {
            if (!f.getValue().isTextual()) {
                return refused("bad-request", "\"env\"." + f.getKey() + " must be a string");
            }
            env.put(f.getKey(), f.getValue().asText());
        }
        Map<String, String> fixed = Map.copyOf(env);
        try {
            return new Start.Lines(new BatchLines(gates.forEnvironment(fixed).judgeFor(cwd), cwd, dialect, fixed));
        } catch (PolicyException e) {
            return refused("policy", String.join("\n", e.problems()));
        }
    }

    /** The reply that starts the batch. */
    static ObjectNode started() {
        ObjectNode out = Protocol.object();
        out.put("v", Protocol.VERSION);
        out.put("batch", true);
        return out;
    }

    /** Answers the rest of the connection's lines, then sends {@link #END}. */
    static void run(BatchLines lines, InputStream in, OutputStream out, int threads) throws IOException {
        Writer w = new OutputStreamWriter(out, StandardCharsets.UTF_8);
        lines.run(in, w, threads);
        w.flush();
        out.write(END);
        out.flush();
    }

    private static Start refused(String code, String message) {
        return new Start.Refused(Protocol.error(code, message));
    }
}
