package io.shellgate.it.agents;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;

/**
 * Anthropic Messages ({@code POST /v1/messages}, streamed as SSE) for Claude Code: the first turn is
 * a {@code tool_use} of its {@code Bash} tool, the turn after the {@code tool_result} is plain text.
 */
public final class AnthropicStub extends StubModel {

    static final String TOOL = "Bash";

    public AnthropicStub(String command) throws IOException {
        super(command);
    }

    @Override
    Reply answer(Request request) {
        if (request.path().endsWith("/count_tokens")) {
            return Reply.json(object().put("input_tokens", 100));
        }
        if (!request.path().endsWith("/v1/messages")) {
            // anything else Claude Code asks at start is optional to it
            return new Reply(404, "application/json", "{\"type\":\"error\",\"error\":{\"type\":\"not_found_error\",\"message\":\"stub\"}}");
        }
        JsonNode body = request.json();
        JsonNode messages = body.path("messages");
        JsonNode last = messages.isEmpty() ? object() : messages.get(messages.size() - 1);
        String result = toolResult(last);
        boolean stream = body.path("stream").asBoolean(false);
        if (result != null) {
            recordToolResult(result);
            return text(FINAL_TEXT, stream);
        }
        if (offersTool(body)) {
            return toolUse(stream);
        }
        // a side question (a title, a summary) to a small model
        return text("stub", stream);
    }

    private static boolean offersTool(JsonNode body) {
        for (JsonNode tool : body.path("tools")) {
            if (TOOL.equals(tool.path("name").asText())) {
                return true;
            }
        }
        return false;
    }

    /** The text of the tool results in a user message, or null when it has none. */
    private static String toolResult(JsonNode message) {
        if (!"user".equals(message.path("role").asText()) || !message.path("content").isArray()) {
            return null;
        }
        StringBuilder text = null;
        for (JsonNode block : message.path("content")) {
            if ("tool_result".equals(block.path("type").asText())) {
                text = text == null ? new StringBuilder() : text.append('\n');
                JsonNode content = block.path("content");
                if (content.isTextual()) {
                    text.append(content.asText());
                } else {
                    for (JsonNode part : content) {
                        text.append(part.path("text").asText());
                    }
                }
            }
        }
        return text == null ? null : text.toString();
    }

    private Reply toolUse(boolean stream) {
        ObjectNode input = object().put("command", command).put("description", "Run the command the test asked for");
        ObjectNode block = object().put("type", "tool_use").put("id", "toolu_stub_1").put("name", TOOL);
        block.set("input", object());
        if (!stream) {
            block.set("input", input);
            return Reply.json(message("tool_use", block));
        }
        ObjectNode delta = object().put("type", "input_json_delta").put("partial_json", input.toString());
        return Reply.sse(streamed("tool_use", block, delta));
    }

    private Reply text(String text, boolean stream) {
        ObjectNode block = object().put("type", "text").put("text", stream ? "" : text);
        if (!stream) {
            return Reply.json(message("end_turn", block));
        }
        return Reply.sse(streamed("end_turn", block, object().put("type", "text_delta").put("text", text)));
    }

    private static ObjectNode message(String stopReason, ObjectNode block) {
        ObjectNode message = object().put("id", "msg_stub").put("type", "message").put("role", "assistant")
                .put("model", "claude-stub");
        message.putArray("content").add(block);
        message.put("stop_reason", stopReason).putNull("stop_sequence");
        message.set("usage", object().put("input_tokens", 100).put("output_tokens", 10));
        return message;
    }

    private static String streamed(String stopReason, ObjectNode block, ObjectNode delta) {
        ObjectNode start = message(null, block);
        start.putArray("content");
        start.putNull("stop_reason");
        StringBuilder sse = new StringBuilder();
        sse.append(event("message_start", object().put("type", "message_start").set("message", start)));
        ObjectNode blockStart = object().put("type", "content_block_start").put("index", 0);
        blockStart.set("content_block", block);
        sse.append(event("content_block_start", blockStart));
        ObjectNode blockDelta = object().put("type", "content_block_delta").put("index", 0);
        blockDelta.set("delta", delta);
        sse.append(event("content_block_delta", blockDelta));
        sse.append(event("content_block_stop", object().put("type", "content_block_stop").put("index", 0)));
        ObjectNode messageDelta = object().put("type", "message_delta");
        messageDelta.set("delta", object().put("stop_reason", stopReason).putNull("stop_sequence"));
        messageDelta.set("usage", object().put("output_tokens", 10));
        sse.append(event("message_delta", messageDelta));
        sse.append(event("message_stop", object().put("type", "message_stop")));
        return sse.toString();
    }
}
