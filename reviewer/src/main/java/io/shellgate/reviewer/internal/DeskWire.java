package io.shellgate.reviewer.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.shellgate.judge.Reason;
import io.shellgate.reviewer.model.Answer;
import io.shellgate.reviewer.model.PendingAsk;
import io.shellgate.reviewer.model.Waiting;
import io.shellgate.rules.JsonTrees;
import io.shellgate.rules.Tier;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * The lines spoken on the approvals socket (docs/protocol.md, "The approvals desk"): an asker
 * sends one {@code ask}, the desk says it has shown it ({@code queued}) and later sends one
 * {@code answer}; an asker that closes the connection has withdrawn its ask.
 */
public final class DeskWire {

    /** The socket's name in the state directory. */
    public static final String SOCKET = "approvals.sock";
    /** Held by the one process that watches a state directory. */
    public static final String LOCK = "approvals.lock";
    /** The longest line either side accepts. */
    public static final int MAX_LINE = 1 << 20;

    private static final JsonNodeFactory F = JsonNodeFactory.instance;

    private DeskWire() {}

    /** Where the desk of {@code stateDir} listens. */
    public static Path socket(Path stateDir) {
        return stateDir.resolve(SOCKET);
    }

    static String ask(PendingAsk ask, Instant since, Instant until) {
        ObjectNode n = F.objectNode();
        n.put("v", 1).put("op", "ask").put("id", ask.id()).put("since", since.toString()).put("until", until.toString())
                .put("entry", ask.origin().entry().id()).put("pid", ask.origin().pid()).put("detail", ask.origin().detail())
                .put("session", ask.origin().session()).put("cwd", ask.request().cwd().toString())
                .put("cmd", ask.request().command());
        ArrayNode reasons = n.putArray("reasons");
        for (Reason r : ask.verdict().bySeverity()) {
            if (r.tier() == Tier.ASK) {
                reasons.add(r.message() + " (" + r.rule() + ")");
            }
        }
        return JsonTrees.write(n);
    }

    /** The ask in a line, or null when the line is not a well-formed ask. */
    public static Waiting parseAsk(String line) {
        try {
            JsonNode n = JsonTrees.parse(line);
            if (n == null || n.path("v").asInt() != 1 || !"ask".equals(n.path("op").asText())
                    || !n.path("id").isTextual() || !n.path("cmd").isTextual() || !n.path("cwd").isTextual()) {
                return null;
            }
            List<String> reasons = new ArrayList<>();
            n.path("reasons").forEach(r -> reasons.add(r.asText()));
            return new Waiting(n.path("id").asText(), Instant.parse(n.path("since").asText()),
                    Instant.parse(n.path("until").asText()), n.path("entry").asText(""), n.path("pid").asLong(0),
                    n.path("detail").asText(""), n.path("session").asText(""), n.path("cwd").asText(),
                    n.path("cmd").asText(), reasons);
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    /** The desk's word that it shows the ask to a person. */
    public static String queued(String id) {
        return JsonTrees.write(F.objectNode().put("v", 1).put("id", id).put("queued", true)
                .put("watcher", ProcessHandle.current().pid()));
    }

    /** A person's answer to the ask {@code id}. */
    public static String answer(String id, Answer answer, String by) {
        return JsonTrees.write(F.objectNode().put("v", 1).put("id", id).put("answer", answer.id()).put("by", by));
    }

    /** The asker's last line before it closes when its time ran out with no answer from anyone. */
    static String expired(String id) {
        return JsonTrees.write(F.objectNode().put("v", 1).put("op", "expired").put("id", id));
    }

    /** Whether {@code line} from an asker says that its ask {@code id} ran out of time unanswered. */
    public static boolean isExpired(String line, String id) {
        try {
            JsonNode n = JsonTrees.parse(line);
            return n != null && n.path("v").asInt() == 1 && "expired".equals(n.path("op").asText())
                    && id.equals(n.path("id").asText());
        } catch (IOException | RuntimeException e) {
            return false;
        }
    }

    /** The desk's answer to an ask it does not hold: its person is away (the last question went unanswered). */
    public static String away(String id, String why) {
        return JsonTrees.write(F.objectNode().put("v", 1).put("id", id).put("away", why));
    }

    /** What a line from the desk says about the ask {@code id}: queued, away, an answer, or nothing usable. */
    sealed interface Said {
        record Queued(long watcher) implements Said {}

        record Away(String why) implements Said {}

        record Answered(Answer answer, String by) implements Said {}

        record Nothing() implements Said {}
    }

    static Said parseReply(String line, String id) {
        try {
            JsonNode n = JsonTrees.parse(line);
            if (n == null || n.path("v").asInt() != 1 || !id.equals(n.path("id").asText())) {
                return new Said.Nothing();
            }
            if (n.path("queued").asBoolean(false)) {
                return new Said.Queued(n.path("watcher").asLong(0));
            }
            if (n.path("away").isTextual()) {
                return new Said.Away(n.path("away").asText());
            }
            Answer a = Answer.parse(n.path("answer").asText(""));
            return a == null ? new Said.Nothing() : new Said.Answered(a, n.path("by").asText("a person"));
        } catch (IOException | RuntimeException e) {
            return new Said.Nothing();
        }
    }
}
