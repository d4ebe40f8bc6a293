package io.shellgate.it.agents;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;

/**
 * OpenAI chat completions ({@code POST /v1/chat/completions}, streamed) for Qwen Code (and, with
 * their tool's name, Copilot CLI and OpenCode): the first turn is a {@code tool_calls} entry for the
 * shell tool, the turn after the {@code tool} message is plain text. A non-streamed side question
 * gets a JSON text that ends it.
 */
public final class ChatCompletionsStub extends StubModel {

    static final String TOOL = "run_shell_command";

    private final String tool;
    private final ObjectNode arguments;
    /** The commands of a session of several, one tool call after each result; null for one command. */
    private final java.util.List<String> session;

    public ChatCompletionsStub(String command) throws IOException {
        this(command, TOOL);
    }

    /** For an agent whose shell tool is {@code tool} (its arguments: the command and a description). */
    public ChatCompletionsStub(String command, String tool) throws IOException {
        super(command);
        this.tool = tool;
        this.arguments = null;
        this.session = null;
    }

    /** A session of several commands with {@code tool}: the next command's call answers each tool result. */
    public ChatCompletionsStub(java.util.List<String> commands, String tool) throws IOException {
        super(commands.getFirst());
        this.tool = tool;
        this.arguments = null;
        this.session = java.util.List.copyOf(commands);
    }

    /** For a call of another tool than the shell: {@code tool} with {@code arguments}. */
    public ChatCompletionsStub(AgentRun.ToolCall call) throws IOException {
        super("");
        this.tool = call.tool();
        this.arguments = (ObjectNode) JSON.readTree(call.arguments());
        this.session = null;
    }

    @Override
    Reply answer(Request request) {
        if (request.path().endsWith("/models")) {
            ObjectNode list = object().put("object", "list");
            list.putArray("data").add(object().put("id", "stub-model").put("object", "model"));
            return Reply.json(list);
        }
        if (!request.path().endsWith("/chat/completions")) {
            return new Reply(404, "application/json", "{\"error\":{\"message\":\"stub\",\"type\":\"not_found\"}}");
        }
        JsonNode body = request.json();
        JsonNode messages = body.path("messages");
        JsonNode last = messages.isEmpty() ? object() : messages.get(messages.size() - 1);
        boolean stream = body.path("stream").asBoolean(false);
        int results = 0;
        for (JsonNode m : messages) {
            results += "tool".equals(m.path("role").asText()) ? 1 : 0;
        }
        String next = command;
        if ("tool".equals(last.path("role").asText())) {
            recordToolResult(text(last.path("content")));
            if (session == null || results >= session.size() || !stream) {
                return answer(object().put("role", "assistant").put("content", FINAL_TEXT), "stop", stream);
            }
            next = session.get(results);
        }
        if (stream && offersTool(body, tool)) {
            ObjectNode args = this.arguments;
            if (args == null) {
                args = object().put("command", next);
                if (tool.equals(TOOL)) {
                    args.put("is_background", false);
                }
                args.put("description", "Run the command the test asked for");
            }
            ObjectNode function = object().put("name", tool).put("arguments", args.toString());
            ObjectNode call = object().put("index", 0).put("id", session == null ? "call_stub_1" : "call_stub_" + (results + 1)).put("type", "function");
            call.set("function", function);
            ObjectNode delta = object().put("role", "assistant");
            delta.putArray("tool_calls").add(call);
            return answer(delta, "tool_calls", true);
        }
        String side = "{\"reasoning\":\"stub\",\"next_speaker\":\"user\"}";
        return answer(object().put("role", "assistant").put("content", stream ? "stub" : side), "stop", stream);
    }

    private static boolean offersTool(JsonNode body, String name) {
        for (JsonNode tool : body.path("tools")) {
            if (name.equals(tool.path("function").path("name").asText())) {
                return true;
            }
        }
        return false;
    }

    private static String text(JsonNode content) {
        if (content.isTextual()) {
            return content.asText();
        }
        StringBuilder text = new StringBuilder();
        for (JsonNode part : content) {
            text.append(part.path("text").asText());
        }
        return text.toString();
    }

    private static Reply answer(ObjectNode message, String finish, boolean stream) {
        ObjectNode usage = object().put("prompt_tokens", 100).put("completion_tokens", 10).put("total_tokens", 110);
        ObjectNode choice = object().put("index", 0);
        ObjectNode chunk = object().put("id", "chatcmpl-stub").put("created", 1_700_000_000L).put("model", "stub-model");
        if (!stream) {
            choice.set("message", message);
            choice.put("finish_reason", finish);
            chunk.put("object", "chat.completion");
            chunk.putArray("choices").add(choice);
            chunk.set("usage", usage);
            return Reply.json(chunk);
        }
        chunk.put("object", "chat.completion.chunk");
        choice.set("delta", message);
        choice.putNull("finish_reason");
        chunk.putArray("choices").add(choice);
        ObjectNode end = chunk.deepCopy();
        ObjectNode endChoice = (ObjectNode) end.path("choices").get(0);
        endChoice.set("delta", object());
        endChoice.put("finish_reason", finish);
        end.set("usage", usage);
        return Reply.sse(event(null, chunk) + event(null, end) + "data: [DONE]\n\n");
    }
}
