package io.shellgate.reviewer.internal.llm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import java.net.URI;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class LlmConfigTest {

    @Test
    void isOffWhenNoProviderIsConfigured() {
        assertThat(LlmConfig.resolve(Map.of(), Map.of())).isEmpty();
        assertThat(LlmConfig.resolve(Map.of("model", "llama3.2"), Map.of("SHELLGATE_LLM_MODEL", "x"))).isEmpty();
        assertThat(LlmConfig.resolve(Map.of(), Map.of("SHELLGATE_LLM_PROVIDER", "  "))).isEmpty();
    }

    @ParameterizedTest
    @CsvSource({
        "openai,    https://api.openai.com/v1, key",
        "ollama,    http://localhost:11434,    ''",
        "anthropic, https://api.anthropic.com/v1, key",
    })
    void usesEachProvidersDefaultsFromTheEnvironmentAlone(String provider, String baseUrl, String key) {
        Map<String, String> env = Map.of(
                "SHELLGATE_LLM_PROVIDER", provider, "SHELLGATE_LLM_MODEL", "m", "SHELLGATE_LLM_API_KEY", key);

        assertThat(LlmConfig.resolve(Map.of(), env)).contains(new LlmConfig(
                Provider.parse(provider), URI.create(baseUrl), "m", key, false, Risk.MEDIUM, Duration.ofSeconds(20)));
    }

    @Test
    void readsEveryKeyOfTheFile() {
        Map<String, String> file = Map.of(
                "provider", "openai",
                "base-url", "http://localhost:11434/v1",
                "model", "qwen2.5-coder",
                "api-key-env", "MY_LLM_KEY",
                "may-approve", "true",
                "max-risk", "high",
                "timeout-seconds", "7");

        assertThat(LlmConfig.resolve(file, Map.of("MY_LLM_KEY", "sk-file"))).contains(new LlmConfig(
                Provider.OPENAI, URI.create("http://localhost:11434/v1"), "qwen2.5-coder", "sk-file", true, Risk.HIGH,
                Duration.ofSeconds(7)));
    }

    @Test
    void environmentBeatsFile() {
        Map<String, String> file = Map.of(
                "provider", "openai",
                "base-url", "http://file.example:1/v1",
                "model", "file-model",
                "api-key-env", "MY_LLM_KEY",
                "may-approve", "false",
                "max-risk", "low",
                "timeout-seconds", "7");
        Map<String, String> env = Map.of(
                "MY_LLM_KEY", "from-file-variable",
                "SHELLGATE_LLM_PROVIDER", "ollama",
                "SHELLGATE_LLM_BASE_URL", "http://127.0.0.1:11434",
                "SHELLGATE_LLM_MODEL", "env-model",
                "SHELLGATE_LLM_API_KEY", "from-env",
                "SHELLGATE_LLM_MAY_APPROVE", "true",
                "SHELLGATE_LLM_MAX_RISK", "high",
                "SHELLGATE_LLM_TIMEOUT_SECONDS", "3");

        assertThat(LlmConfig.resolve(file, env)).contains(new LlmConfig(
                Provider.OLLAMA, URI.create("http://127.0.0.1:11434"), "env-model", "from-env", true, Risk.HIGH,
                Duration.ofSeconds(3)));
    }

    @Test
    void aLocalOpenAiCompatibleServerNeedsNoKey() {
        Optional<LlmConfig> config = LlmConfig.resolve(
                Map.of("provider", "openai", "base-url", "http://localhost:8080/v1", "model", "local"), Map.of());

        assertThat(config).map(LlmConfig::apiKey).contains("");
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "provider|gemini|[review.llm] provider is \"gemini\"; use openai",
        "base-url|localhost:11434|[review.llm] base-url is \"localhost:11434\"; write an http or https URL",
        "base-url|ftp://example.com/v1|[review.llm] base-url is \"ftp://example.com/v1\"; write an http or https URL",
        "base-url|http://exa mple|[review.llm] base-url is \"http://exa mple\"; write an http or https URL",
        "timeout-seconds|twenty|[review.llm] timeout-seconds is \"twenty\"; write a whole number of seconds",
        "timeout-seconds|0|[review.llm] timeout-seconds is \"0\"; write a whole number of seconds",
        "may-approve|yes|[review.llm] may-approve is \"yes\"; use true or false",
        "max-risk|severe|[review.llm] max-risk is \"severe\"; use low, medium or high",
    })
    void rejectsABadFileValueNamingTheKeyTheValueAndTheFix(String key, String value, String message) {
        Map<String, String> file = new java.util.HashMap<>(Map.of("provider", "ollama", "model", "m"));
        file.put(key, value);

        assertThatIllegalArgumentException().isThrownBy(() -> LlmConfig.resolve(file, Map.of()))
                .withMessageContaining(message);
    }

    @Test
    void rejectsABadEnvironmentValueNamingTheVariable() {
        assertThatIllegalArgumentException()
                .isThrownBy(() -> LlmConfig.resolve(Map.of("provider", "ollama", "model", "m"),
                        Map.of("SHELLGATE_LLM_TIMEOUT_SECONDS", "5s")))
                .withMessage("LLM reviewer: environment variable SHELLGATE_LLM_TIMEOUT_SECONDS is \"5s\"; write a whole"
                        + " number of seconds from 1 to 3600, like 20");
    }

    @Test
    void rejectsUnknownKeysAndAKeyWrittenIntoTheFile() {
        assertThatIllegalArgumentException()
                .isThrownBy(() -> LlmConfig.resolve(Map.of("provider", "openai", "api-key", "sk-123"), Map.of()))
                .withMessageContaining("unknown key(s) [api-key]")
                .withMessageContaining("api-key-env")
                .withMessageNotContaining("sk-123");
        assertThatIllegalArgumentException()
                .isThrownBy(() -> LlmConfig.resolve(Map.of("provider", "ollama", "base_url", "x"), Map.of()))
                .withMessageContaining("unknown key(s) [base_url]");
    }

    @Test
    void requiresAModel() {
        assertThatIllegalArgumentException()
                .isThrownBy(() -> LlmConfig.resolve(Map.of("provider", "ollama"), Map.of()))
                .withMessageContaining("needs a model: set model in [review.llm] or SHELLGATE_LLM_MODEL");
    }

    @Test
    void requiresAKeyForAnthropicAndOpenAisOwnService() {
        assertThatIllegalArgumentException()
                .isThrownBy(() -> LlmConfig.resolve(Map.of("provider", "anthropic", "model", "m"), Map.of()))
                .withMessageContaining("needs an API key: set SHELLGATE_LLM_API_KEY");
        assertThatIllegalArgumentException()
                .isThrownBy(() -> LlmConfig.resolve(Map.of("provider", "openai", "model", "m"), Map.of()))
                .withMessageContaining("needs an API key");
    }

    @Test
    void rejectsAnApiKeyEnvNamingAnUnsetVariable() {
        assertThatIllegalArgumentException()
                .isThrownBy(() -> LlmConfig.resolve(
                        Map.of("provider", "anthropic", "model", "m", "api-key-env", "ANTHROPIC_API_KEY"), Map.of()))
                .withMessage("[review.llm] api-key-env names the environment variable ANTHROPIC_API_KEY, which is not"
                        + " set; export ANTHROPIC_API_KEY or set SHELLGATE_LLM_API_KEY");
    }

    @Test
    void neverShowsTheKey() {
        LlmConfig config = LlmConfig.of(Provider.OPENAI, URI.create("https://api.openai.com/v1"), "m", "sk-secret");

        assertThat(config.toString()).doesNotContain("sk-secret").contains("apiKey=(set)");
    }

    @Test
    void rejectsANonPositiveTimeout() {
        LlmConfig config = LlmConfig.of(Provider.OLLAMA, URI.create("http://localhost:11434"), "m", "");

        assertThatIllegalArgumentException().isThrownBy(() -> config.withTimeout(Duration.ZERO));
    }
}
