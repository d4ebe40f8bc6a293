package io.shellgate.reviewer.internal.llm;

import dev.langchain4j.http.client.jdk.JdkHttpClientBuilder;
import dev.langchain4j.model.anthropic.AnthropicChatModel;
import dev.langchain4j.model.chat.ChatModel;
import dev.langchain4j.model.chat.request.ResponseFormat;
import dev.langchain4j.model.chat.request.ResponseFormatType;
import dev.langchain4j.model.chat.request.json.JsonObjectSchema;
import dev.langchain4j.model.chat.request.json.JsonSchema;
import dev.langchain4j.model.ollama.OllamaChatModel;
import dev.langchain4j.model.openai.OpenAiChatModel;
import java.net.http.HttpClient;

/** Builds the LangChain4j chat model for a configuration: the one place that knows each provider. */
final class ChatModels {

    /** Anthropic requires a limit; a verdict and one sentence fit well within it. */
    private static final int MAX_OUTPUT_TOKENS = 1024;

    /**
     * The reply's shape, sent as a JSON schema: OpenAI's {@code response_format}, Ollama's
     * {@code format}, Anthropic's {@code output_config}. The system prompt says the same in words
     * for servers that ignore it.
     */
    static final ResponseFormat REPLY_FORMAT = ResponseFormat.builder()
            .type(ResponseFormatType.JSON)
            .jsonSchema(JsonSchema.builder()
                    .name("shellgate_review")
                    .rootElement(JsonObjectSchema.builder()
                            .addEnumProperty("decision", java.util.List.of("approve", "refuse", "escalate"))
                            .addEnumProperty("risk", java.util.List.of("low", "medium", "high"))
                            .addStringProperty("reason")
                            .required("decision", "risk", "reason")
                            .additionalProperties(false)
                            .build())
                    .build())
            .build();

    private ChatModels() {}

    static ChatModel create(LlmConfig config) {
        String baseUrl = config.baseUrl().toString();
        String key = config.apiKey().isEmpty() ? null : config.apiKey();
        return switch (config.provider()) {
            case OPENAI -> OpenAiChatModel.builder()
                    .httpClientBuilder(http(config))
                    .baseUrl(baseUrl)
                    .apiKey(key)
                    .modelName(config.model())
                    .strictJsonSchema(true)
                    .timeout(config.timeout())
                    .maxRetries(0)
                    .build();
            case OLLAMA -> OllamaChatModel.builder()
                    .httpClientBuilder(http(config))
                    .baseUrl(baseUrl)
                    .modelName(config.model())
                    .temperature(0.0)
                    .timeout(config.timeout())
                    .maxRetries(0)
                    .build();
            case ANTHROPIC -> AnthropicChatModel.builder()
                    .httpClientBuilder(http(config))
                    .baseUrl(baseUrl)
                    .apiKey(key)
                    .modelName(config.model())
                    .temperature(0.0)
                    .maxTokens(MAX_OUTPUT_TOKENS)
                    .timeout(config.timeout())
                    .maxRetries(0)
                    .build();
        };
    }

    private static JdkHttpClientBuilder http(LlmConfig config) {
        // HTTP/1.1: on plain http:// the JDK client would first try an h2c upgrade, which local
        // model servers (llama.cpp, LM Studio, proxies) answer badly or not at all.
        return new JdkHttpClientBuilder()
                .httpClientBuilder(HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1))
                .connectTimeout(config.timeout())
                .readTimeout(config.timeout());
    }
}
