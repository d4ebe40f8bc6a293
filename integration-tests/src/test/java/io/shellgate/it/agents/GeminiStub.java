package io.shellgate.it.agents;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;

/**
 * Gemini API ({@code POST /v1beta/models/M:streamGenerateContent?alt=sse}) for Gemini CLI: the first
 * turn is a {@code functionCall} of {@code run_shell_command}, the turn after the
 * {@code functionResponse} is plain text. Side calls ({@code :generateContent} for Gemini CLI's
 * routing and next-speaker questions, {@code :countTokens}) get answers that end them at once.
 */
public final class GeminiStub extends StubModel {

    static final String TOOL = "run_shell_command";

    /**
     * The answer to every non-streamed side question: Gemini CLI parses these as JSON and reads the
     * field it asked for (a model choice, who speaks next), so one object serves them all.
     */
    static final String SIDE_ANSWER = "{\"reasoning\":\"stub\",\"next_speaker\":\"user\",\"model_choice\":\"flash\","
            + "\"complexity_reasoning\":\"stub\",\"complexity_score\":10}";

    public GeminiStub(String command) throws IOException {
        super(command);
    }

    @Override
    Reply answer(Request request) {
        String path = request.path();
        if (path.endsWith(":countTokens")) {
            return Reply.json(object().put("totalTokens", 100));
        }
        if (path.endsWith(":generateContent")) {
            return Reply.json(response(textPart(SIDE_ANSWER)));
        }
        if (!path.endsWith(":streamGenerateContent")) {
            return new Reply(404, "application/json", "{\"error\":{\"code\":404,\"message\":\"stub\",\"status\":\"NOT_FOUND\"}}");
        }
        JsonNode body = request.json();
        JsonNode contents = body.path("contents");
        JsonNode last = contents.isEmpty() ? object() : contents.get(contents.size() - 1);
        String result = functionResponse(last);
        if (result != null) {
            recordToolResult(result);
            return Reply.sse(event(null, response(textPart(FINAL_TEXT))));
        }
        if (offersTool(body)) {
            ObjectNode call = object().put("name", TOOL);
            call.set("args", object().put("command", command).put("description", "Run the command the test asked for"));
            ObjectNode part = object();
            part.set("functionCall", call);
            return Reply.sse(event(null, response(part)));
        }
        return Reply.sse(event(null, response(textPart("stub"))));
    }

    private static boolean offersTool(JsonNode body) {
        for (JsonNode tool : body.path("tools")) {
            for (JsonNode declaration : tool.path("functionDeclarations")) {
                if (TOOL.equals(declaration.path("name").asText())) {
                    return true;
                }
            }
        }
        return false;
    }

    /** The functionResponse parts of a turn, as text, or null when it has none. */
    private static String functionResponse(JsonNode content) {
        StringBuilder text = null;
        for (JsonNode part : content.path("parts")) {
            JsonNode response = part.path("functionResponse").path("response");
            if (!response.isMissingNode()) {
                text = text == null ? new StringBuilder() : text.append('\n');
                JsonNode output = response.path("output");
                text.append(output.isTextual() ? output.asText() : response.toString());
            }
        }
        return text == null ? null : text.toString();
    }

    private static ObjectNode textPart(String text) {
        return object().put("text", text);
    }

    private static ObjectNode response(ObjectNode part) {
        ObjectNode content = object().put("role", "model");
        content.putArray("parts").add(part);
        ObjectNode candidate = object();
        candidate.set("content", content);
        candidate.put("finishReason", "STOP").put("index", 0);
        ObjectNode response = object();
        response.putArray("candidates").add(candidate);
        response.set("usageMetadata", object().put("promptTokenCount", 100).put("candidatesTokenCount", 10)
                .put("totalTokenCount", 110));
        response.put("modelVersion", "gemini-stub");
        return response;
    }
}
