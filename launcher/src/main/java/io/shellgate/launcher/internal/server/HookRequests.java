package io.shellgate.launcher.internal.server;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.shellgate.launcher.internal.gate.Gatekeepers;
import io.shellgate.launcher.internal.hook.HookAgent;
import io.shellgate.launcher.internal.hook.HookAnswer;
import io.shellgate.launcher.internal.hook.HookGate;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The {@code hook} request: an agent hook call relayed by the launcher script, answered by the
 * warm judge (see docs/protocol.md). The reply carries what the hook prints and its exit code.
 */
final class HookRequests {

    private final HookGate gate;

    HookRequests(Gatekeepers gates) {
        this.gate = new HookGate(gates);
    }

    ObjectNode reply(JsonNode request, java.util.function.BooleanSupplier clientGone,
            io.shellgate.reviewer.model.ReviewRequest.Progress progress) {
        Optional<HookAgent> agent = HookAgent.parse(Protocol.text(request, "agent"));
        if (agent.isEmpty()) {
            return Protocol.error("bad-request", "\"agent\" must be one of " + HookGate.known());
        }
        String input = Protocol.text(request, "input");
        if (input == null) {
            return Protocol.error("bad-request", "\"input\" (the hook's standard input, a string) is required");
        }
        String cwdText = Protocol.text(request, "cwd");
        if (cwdText == null || !cwdText.startsWith("/") || !Files.isDirectory(Path.of(cwdText))) {
            return Protocol.error("bad-request", "\"cwd\" (the hook's directory, an absolute path) is required");
        }
        JsonNode environ = request.get("environ");
        if (environ == null || !environ.isArray()) {
            return Protocol.error("bad-request", "\"environ\" (the hook's environment, NAME=VALUE strings) is required");
        }
        Map<String, String> env = new HashMap<>();
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
        HookAnswer answer = gate.answer(agent.get(), input, Map.copyOf(env), Path.of(cwdText).normalize(),
                request.path("caller").asLong(0), clientGone, progress);
        ObjectNode out = Protocol.object();
        out.put("v", Protocol.VERSION);
        out.put("exit", answer.exit());
        out.put("stdout", answer.stdout());
        out.put("stderr", answer.stderr());
        return out;
    }
}
