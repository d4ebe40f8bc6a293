package io.shellgate.rules.internal;

import static io.shellgate.rules.internal.NodeReader.path;

import com.fasterxml.jackson.databind.JsonNode;
import io.shellgate.rules.Approval;
import io.shellgate.rules.Layer;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/** Reads the {@code [review]} table and the {@code [[approved]]} entries of one policy file. */
final class ReviewReader {

    private static final Pattern KEBAB = Pattern.compile("[a-z0-9]+(-[a-z0-9]+)*");
    private static final Set<String> LLM_KEYS = Set.of("provider", "base-url", "model", "api-key-env", "may-approve",
            "max-risk", "timeout-seconds");

    private final NodeReader in;
    private final Layer layer;

    ReviewReader(NodeReader in, Layer layer) {
        this.in = in;
        this.layer = layer;
    }

    /** The person timeout, or null when the file does not set it. */
    Integer personTimeout(JsonNode root) {
        JsonNode review = in.table(root, List.of(), "review");
        if (review == null) {
            return null;
        }
        in.checkKeys(review, List.of("review"), Set.of("person-timeout-seconds", "remember-days", "agent-allow-rules", "agent-dialog",
                "llm"));
        return in.integer(review, List.of("review"), "person-timeout-seconds", 1, 600);
    }

    /** For how many days a person's "always in this project" counts, or null when the file does not say. */
    Integer rememberDays(JsonNode root) {
        JsonNode review = root.get("review");
        if (review == null || !review.isObject()) {
            return null;
        }
        return in.integer(review, List.of("review"), "remember-days", 1, 3650);
    }

    /**
     * Whether an ask an agent's hook hands to the agent's own dialog is left to a specific allow rule of the agent's
     * own settings that covers the command, or null when the file does not say.
     */
    Boolean agentAllowRules(JsonNode root) {
        JsonNode review = root.get("review");
        if (review == null || !review.isObject()) {
            return null;
        }
        return in.bool(review, List.of("review"), "agent-allow-rules");
    }

    /**
     * Whether an ask an agent's hook hands to the agent may get no decision from the hook, so that the agent shows its
     * own permission dialog, or null when the file does not say.
     */
    Boolean agentDialog(JsonNode root) {
        JsonNode review = root.get("review");
        if (review == null || !review.isObject()) {
            return null;
        }
        return in.bool(review, List.of("review"), "agent-dialog");
    }

    /** The {@code [review.llm]} table as strings; empty when absent. */
    Map<String, String> llm(JsonNode root) {
        JsonNode review = root.get("review");
        Map<String, String> out = new LinkedHashMap<>();
        if (review == null || !review.isObject()) {
            return out;
        }
        List<Object> p = List.of("review", "llm");
        JsonNode llm = in.table(review, List.of("review"), "llm");
        if (llm == null) {
            return out;
        }
        in.checkKeys(llm, p, LLM_KEYS);
        if (llm.has("api-key")) {
            in.problem(path(p, "api-key"), "do not put a key in a policy file; name the variable that holds it with api-key-env");
        }
        for (Iterator<Map.Entry<String, JsonNode>> it = llm.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            JsonNode v = e.getValue();
            if (v.isTextual() || v.isNumber() || v.isBoolean()) {
                out.put(e.getKey(), v.asText());
            } else {
                in.problem(path(p, e.getKey()), "must be a string, a number or true/false");
            }
        }
        return out;
    }

    /** The {@code [[approved]]} entries. */
    List<Approval> approvals(JsonNode root) {
        List<Approval> out = new ArrayList<>();
        List<JsonNode> tables = in.tables(root, List.of(), "approved");
        for (int i = 0; i < tables.size(); i++) {
            JsonNode t = tables.get(i);
            if (t == null) {
                continue;
            }
            List<Object> p = List.of("approved", i);
            in.checkKeys(t, p, Set.of("id", "command", "prefix", "args-none", "max-args", "project", "expires", "note"));
            String id = in.string(t, p, "id", true);
            if (id != null && !KEBAB.matcher(id).matches()) {
                in.problem(path(p, "id"), "'" + id + "' is not a kebab-case id; use lower-case letters, digits and single dashes");
            }
            String command = in.string(t, p, "command", false);
            List<String> prefix = in.strings(t, p, "prefix", true);
            if ((command == null) == prefix.isEmpty()) {
                in.problem(p, "an approval has either 'command' (one exact command line) or 'prefix' (a list of words), not both");
            }
            if (command != null && command.isBlank()) {
                in.problem(path(p, "command"), "must be the command line to approve");
            }
            if (!prefix.isEmpty() && Approval.isGeneric(prefix.getFirst())) {
                in.problem(path(p, "prefix"), "'" + prefix.getFirst() + "' runs other programs or code; an \"always allow\""
                        + " for it would allow everything. Approve exact command lines with 'command' instead");
            }
            String project = in.string(t, p, "project", false);
            if (project != null && !project.startsWith("/") && !project.startsWith("~/")) {
                in.problem(path(p, "project"), "'" + project + "' must be an absolute path (or start with ~/)");
            }
            out.add(new Approval(id == null ? "" : id, command, prefix, in.strings(t, p, "args-none", false),
                    in.integer(t, p, "max-args", 0, 1000), project, expires(t, p), in.string(t, p, "note", false),
                    in.location(p), layer));
        }
        return out;
    }

    private Instant expires(JsonNode t, List<Object> p) {
        String text = in.string(t, p, "expires", false);
        if (text == null) {
            return null;
        }
        try {
            return text.length() == 10 ? LocalDate.parse(text).atStartOfDay(ZoneOffset.UTC).toInstant() : Instant.parse(text);
        } catch (DateTimeParseException e) {
            in.problem(path(p, "expires"), "'" + text + "' is not a date (2026-12-31) or a UTC time (2026-12-31T18:00:00Z)");
            return null;
        }
    }
}
