package io.shellgate.reviewer.internal.llm;

import java.net.URI;
import java.util.Locale;

/** The wire protocols the LLM reviewer speaks. */
public enum Provider {
    /** OpenAI chat completions; also Ollama's {@code /v1}, vLLM, llama.cpp server, LM Studio. */
    OPENAI("https://api.openai.com/v1"),
    /** Ollama's native {@code /api/chat}. */
    OLLAMA("http://localhost:11434"),
    /** Anthropic messages. */
    ANTHROPIC("https://api.anthropic.com/v1");

    private final URI defaultBaseUrl;

    Provider(String defaultBaseUrl) {
        this.defaultBaseUrl = URI.create(defaultBaseUrl);
    }

    /** The id used in the policy file and {@code SHELLGATE_LLM_PROVIDER}. */
    public String id() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** The provider's own service, used when no base URL is configured. */
    public URI defaultBaseUrl() {
        return defaultBaseUrl;
    }

    /** Parses a provider id, ignoring case; null when it is none. */
    public static Provider parse(String text) {
        for (Provider p : values()) {
            if (p.id().equalsIgnoreCase(text)) {
                return p;
            }
        }
        return null;
    }
}
