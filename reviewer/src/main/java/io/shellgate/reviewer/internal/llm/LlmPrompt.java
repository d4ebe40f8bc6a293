package io.shellgate.reviewer.internal.llm;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.shellgate.judge.JudgeRequest;
import io.shellgate.judge.Reason;
import io.shellgate.judge.Verdict;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/**
 * The messages sent to the LLM: the instructions from {@code llm-system-prompt.txt}, and the
 * request as one JSON document between unforgeable markers, from {@code llm-user-prompt.txt}.
 */
final class LlmPrompt {

    static final String OPEN = "<untrusted-request>";
    static final String CLOSE = "</untrusted-request>";
    /** Longer command lines are left to a person: nobody reads them whole, a model neither. */
    static final int MAX_COMMAND_CHARS = 16_000;
    static final int MAX_FINDINGS = 20;

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String SYSTEM = load("llm-system-prompt.txt");
    private static final String USER = load("llm-user-prompt.txt");

    private LlmPrompt() {}

    static String system() {
        return SYSTEM;
    }

    static String user(JudgeRequest request, Verdict verdict) {
        ObjectNode root = JSON.createObjectNode();
        root.put("command", request.command());
        root.put("dialect", request.dialect().id());
        root.put("cwd", request.cwd().toString());
        ArrayNode findings = root.putArray("findings");
        verdict.bySeverity().stream().limit(MAX_FINDINGS).forEach(r -> finding(findings.addObject(), r, request));
        String json;
        try {
            json = JSON.writerWithDefaultPrettyPrinter().writeValueAsString(root);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot write the LLM request as JSON", e);
        }
        // '<' and '>' occur in JSON only inside strings, so escaping them keeps the JSON equal while
        // no command text can spell the closing marker and step out of the data.
        json = json.replace("<", "\\u003c").replace(">", "\\u003e");
        return USER.replace("{{request}}", json);
    }

    private static void finding(ObjectNode node, Reason r, JudgeRequest request) {
        node.put("rule", r.rule());
        node.put("tier", r.tier().id());
        node.put("message", r.message());
        String part = r.span().of(request.command());
        if (!part.isEmpty()) {
            node.put("part", part);
        }
    }

    private static String load(String name) {
        try (InputStream in = LlmPrompt.class.getResourceAsStream("/io/shellgate/reviewer/" + name)) {
            if (in == null) {
                throw new IllegalStateException("resource io/shellgate/reviewer/" + name + " is missing from the jar");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read resource " + name, e);
        }
    }
}
