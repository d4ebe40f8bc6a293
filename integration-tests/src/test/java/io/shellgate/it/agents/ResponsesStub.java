package io.shellgate.it.agents;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;

/**
 * OpenAI Responses API ({@code POST /v1/responses}, streamed as SSE) for Codex: the first turn is a
 * {@code function_call} of Codex's shell tool, the turn after its {@code function_call_output} is an
 * assistant message. Which shell tool depends on what the request offers: {@code exec_command}
 * (arguments {@code cmd}, and {@code shell} when the test picks one), else {@code shell} (an argv).
 */
public final class ResponsesStub extends StubModel {

    private final String shell;

    /** A stub that leaves the shell to Codex. */
    public ResponsesStub(String command) throws IOException {
        this(command, null);
    }

    /** A stub whose tool call names a shell, as a model may do ({@code "shell": "sh"}). */
    public ResponsesStub(String command, String shell) throws IOException {
        super(command);
        this.shell = shell;
    }

    @Override
    Reply answer(Request request) {
        if (request.path().endsWith("/models")) {
            return Reply.json(object().set("models", JSON.createArrayNode()));
        }
        if (!request.path().endsWith("/responses")) {
            return new Reply(404, "application/json", "{\"error\":{\"message\":\"stub\",\"type\":\"not_found\"}}");
        }
        JsonNode body = request.json();
        JsonNode input = body.path("input");
        String result = lastOutput(input);
        if (result != null) {
            recordToolResult(result);
            ObjectNode message = object().put("type", "message").put("role", "assistant").put("id", "msg_stub");
            message.putArray("content").add(object().put("type", "output_text").put("text", FINAL_TEXT));
            return Reply.sse(stream(message));
        }
        ObjectNode call = call(body.path("tools"));
        if (call == null) {
            ObjectNode message = object().put("type", "message").put("role", "assistant").put("id", "msg_stub");
            message.putArray("content").add(object().put("type", "output_text").put("text", "stub"));
            return Reply.sse(stream(message));
        }
        return Reply.sse(stream(call));
    }

    /** The function call for the shell tool this request offers, or null when it offers none. */
    private ObjectNode call(JsonNode tools) {
        ObjectNode arguments = object();
        String name = null;
        for (JsonNode tool : tools) {
            String offered = tool.path("name").asText();
            if (offered.equals("exec_command")) {
                name = offered;
                arguments = object().put("cmd", command);
                if (shell != null) {
                    arguments.put("shell", shell);
                }
                break;
            }
            if (offered.equals("shell")) {
                name = offered;
                arguments.putArray("command").add(shell == null ? "bash" : shell).add("-lc").add(command);
            }
        }
        if (name == null) {
            return null;
        }
        return object().put("type", "function_call").put("id", "fc_stub").put("call_id", "call_stub_1").put("name", name)
                .put("arguments", arguments.toString()).put("status", "completed");
    }

    /** The output of the last function call in the input, or null when the last item is not one. */
    private static String lastOutput(JsonNode input) {
        if (input.isEmpty()) {
            return null;
        }
        JsonNode last = input.get(input.size() - 1);
        if (!"function_call_output".equals(last.path("type").asText())) {
            return null;
        }
        JsonNode output = last.path("output");
        if (output.isTextual()) {
            return output.asText();
        }
        StringBuilder text = new StringBuilder();
        for (JsonNode part : output.isArray() ? output : output.path("content")) {
            text.append(part.path("text").asText());
        }
        return text.toString();
    }

    private static String stream(ObjectNode item) {
        StringBuilder sse = new StringBuilder();
        ObjectNode created = object().put("type", "response.created");
        created.set("response", object().put("id", "resp_stub"));
        sse.append(event("response.created", created));
        ObjectNode done = object().put("type", "response.output_item.done").put("output_index", 0);
        done.set("item", item);
        sse.append(event("response.output_item.done", done));
        ObjectNode usage = object().put("input_tokens", 100).put("output_tokens", 10).put("total_tokens", 110);
        usage.set("input_tokens_details", object().put("cached_tokens", 0));
        usage.set("output_tokens_details", object().put("reasoning_tokens", 0));
        ObjectNode response = object().put("id", "resp_stub");
        response.set("usage", usage);
        ObjectNode completed = object().put("type", "response.completed");
        completed.set("response", response);
        sse.append(event("response.completed", completed));
        return sse.toString();
    }
}
