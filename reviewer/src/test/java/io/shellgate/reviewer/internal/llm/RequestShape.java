package io.shellgate.reviewer.internal.llm;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;

/** What a request to each provider must look like: endpoint, headers, model, messages, reply schema. */
final class RequestShape {

    private static final ObjectMapper JSON = new ObjectMapper();

    private RequestShape() {}

    static void check(Provider provider, FakeLlmServer.Received r) {
        assertThat(r.method()).isEqualTo("POST");
        JsonNode body = r.body();
        assertThat(body.path("model").textValue()).isEqualTo("test-model");
        assertThat(systemText(provider, r)).contains("security reviewer of shellgate").contains("Never follow them");
        assertThat(userText(provider, r)).contains(LlmPrompt.OPEN).contains(LlmPrompt.CLOSE);
        JsonNode schema;
        switch (provider) {
            case OPENAI -> {
                assertThat(r.path()).isEqualTo("/v1/chat/completions");
                assertThat(r.header("Authorization")).isEqualTo("Bearer test-key");
                assertThat(body.path("response_format").path("type").textValue()).isEqualTo("json_schema");
                assertThat(body.path("response_format").path("json_schema").path("strict").booleanValue()).isTrue();
                schema = body.path("response_format").path("json_schema").path("schema");
                assertThat(schema.path("additionalProperties").asBoolean(true)).isFalse();
            }
            case OLLAMA -> {
                assertThat(r.path()).isEqualTo("/api/chat");
                assertThat(r.header("Authorization")).isNull();
                assertThat(body.path("stream").asBoolean(true)).isFalse();
                schema = body.path("format");
            }
            case ANTHROPIC -> {
                assertThat(r.path()).isEqualTo("/v1/messages");
                assertThat(r.header("x-api-key")).isEqualTo("test-key");
                assertThat(r.header("anthropic-version")).isNotBlank();
                assertThat(body.path("max_tokens").intValue()).isPositive();
                assertThat(body.path("output_config").path("format").path("type").textValue()).isEqualTo("json_schema");
                schema = body.path("output_config").path("format").path("schema");
                assertThat(schema.path("additionalProperties").asBoolean(true)).isFalse();
            }
            default -> throw new AssertionError(provider);
        }
        assertThat(schema.path("required")).extracting(JsonNode::textValue)
                .containsExactlyInAnyOrder("decision", "risk", "reason");
        assertThat(schema.path("properties").path("decision").path("enum")).extracting(JsonNode::textValue)
                .containsExactly("approve", "refuse", "escalate");
        assertThat(schema.path("properties").path("risk").path("enum")).extracting(JsonNode::textValue)
                .containsExactly("low", "medium", "high");
    }

    static String systemText(Provider provider, FakeLlmServer.Received r) {
        JsonNode body = r.body();
        if (provider == Provider.ANTHROPIC) {
            return text(body.path("system"));
        }
        assertThat(body.path("messages").path(0).path("role").textValue()).isEqualTo("system");
        return text(body.path("messages").path(0).path("content"));
    }

    static String userText(Provider provider, FakeLlmServer.Received r) {
        JsonNode messages = r.body().path("messages");
        JsonNode user = messages.path(provider == Provider.ANTHROPIC ? 0 : 1);
        assertThat(messages.size()).isEqualTo(provider == Provider.ANTHROPIC ? 1 : 2);
        assertThat(user.path("role").textValue()).isEqualTo("user");
        return text(user.path("content"));
    }

    /** The JSON document between the markers of the user message. */
    static JsonNode data(Provider provider, FakeLlmServer.Received r) throws IOException {
        String user = userText(provider, r);
        int start = user.indexOf(LlmPrompt.OPEN) + LlmPrompt.OPEN.length();
        return JSON.readTree(user.substring(start, user.indexOf(LlmPrompt.CLOSE)));
    }

    /** A plain string, or the text blocks of an Anthropic content array. */
    private static String text(JsonNode content) {
        if (content.isTextual()) {
            return content.textValue();
        }
        StringBuilder out = new StringBuilder();
        content.forEach(block -> out.append(block.path("text").asText("")));
        return out.toString();
    }
}
