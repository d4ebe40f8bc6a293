package io.shellgate.reviewer.internal.llm;

import java.net.URI;
import java.net.URISyntaxException;
import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * How to reach the LLM reviewer and how far its word goes.
 *
 * <p>The LLM may approve an ask only when {@code mayApprove} is set and the risk it reports is
 * strictly below {@code maxRisk}; see {@link LlmOpinion#approves(LlmConfig)}.
 *
 * @param provider the wire protocol
 * @param baseUrl where the provider's API lives (for OpenAI-compatible servers, up to {@code /v1})
 * @param model the model name the provider knows
 * @param apiKey the key, empty when the server needs none (Ollama, most local servers)
 * @param mayApprove whether an approval by the LLM lets a command run; off by default
 * @param maxRisk approvals count only below this risk; {@link Risk#MEDIUM} by default
 * @param timeout how long one review may take; 20 seconds by default
 */
public record LlmConfig(
        Provider provider, URI baseUrl, String model, String apiKey, boolean mayApprove, Risk maxRisk, Duration timeout) {

    public static final Risk DEFAULT_MAX_RISK = Risk.MEDIUM;
    public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(20);

    /** The keys of the policy file's {@code [review.llm]} table. */
    public static final Set<String> FILE_KEYS =
            Set.of("provider", "base-url", "model", "api-key-env", "may-approve", "max-risk", "timeout-seconds");

    public LlmConfig {
        Objects.requireNonNull(provider, "provider");
        Objects.requireNonNull(baseUrl, "baseUrl");
        Objects.requireNonNull(model, "model");
        Objects.requireNonNull(maxRisk, "maxRisk");
        Objects.requireNonNull(timeout, "timeout");
        apiKey = apiKey == null ? "" : apiKey;
        if (timeout.isNegative() || timeout.isZero()) {
            throw new IllegalArgumentException("the LLM reviewer's timeout must be positive, not " + timeout);
        }
    }

    /** A configuration with the defaults: may not approve, max risk medium, 20 seconds. */
    public static LlmConfig of(Provider provider, URI baseUrl, String model, String apiKey) {
        return new LlmConfig(provider, baseUrl, model, apiKey, false, DEFAULT_MAX_RISK, DEFAULT_TIMEOUT);
    }

    public LlmConfig withMayApprove(boolean may) {
        return new LlmConfig(provider, baseUrl, model, apiKey, may, maxRisk, timeout);
    }

    public LlmConfig withMaxRisk(Risk max) {
        return new LlmConfig(provider, baseUrl, model, apiKey, mayApprove, max, timeout);
    }

    public LlmConfig withTimeout(Duration t) {
        return new LlmConfig(provider, baseUrl, model, apiKey, mayApprove, maxRisk, t);
    }

    /** Never shows the key: configurations end up in logs and error messages. */
    @Override
    public String toString() {
        return "LlmConfig[provider=" + provider.id() + ", baseUrl=" + baseUrl + ", model=" + model
                + ", apiKey=" + (apiKey.isEmpty() ? "none" : "(set)") + ", mayApprove=" + mayApprove
                + ", maxRisk=" + maxRisk.id() + ", timeout=" + timeout + "]";
    }

    /**
     * The LLM reviewer's configuration from the policy file's {@code [review.llm]} table and the
     * environment; a {@code SHELLGATE_LLM_*} variable beats the file's key.
     *
     * @param file the table's keys with their values as strings (empty when there is no table)
     * @param env the process environment
     * @return empty when no provider is configured: the LLM reviewer is off
     * @throws IllegalArgumentException for a value that cannot be used, naming where it came from
     */
    public static Optional<LlmConfig> resolve(Map<String, String> file, Map<String, String> env) {
        Set<String> unknown = new TreeSet<>(file.keySet());
        unknown.removeAll(FILE_KEYS);
        if (!unknown.isEmpty()) {
            String hint = unknown.contains("api-key")
                    ? "; keep the key out of the file: put it in an environment variable and name that with api-key-env"
                    : "";
            throw new IllegalArgumentException("[review.llm] has unknown key(s) " + unknown + "; the keys are "
                    + new TreeSet<>(FILE_KEYS) + hint);
        }
        Setting providerSetting = Setting.of(file, env, "provider", "SHELLGATE_LLM_PROVIDER");
        if (providerSetting == null) {
            return Optional.empty();
        }
        Provider provider = Provider.parse(providerSetting.value());
        if (provider == null) {
            throw providerSetting.invalid("use openai (also for Ollama's /v1, vLLM, llama.cpp, LM Studio), ollama or anthropic");
        }
        Setting urlSetting = Setting.of(file, env, "base-url", "SHELLGATE_LLM_BASE_URL");
        URI baseUrl = urlSetting == null ? provider.defaultBaseUrl() : url(urlSetting);
        Setting modelSetting = Setting.of(file, env, "model", "SHELLGATE_LLM_MODEL");
        if (modelSetting == null) {
            throw new IllegalArgumentException("the LLM reviewer (provider " + provider.id()
                    + ") needs a model: set model in [review.llm] or SHELLGATE_LLM_MODEL");
        }
        String apiKey = apiKey(file, env, provider, baseUrl);
        Setting maySetting = Setting.of(file, env, "may-approve", "SHELLGATE_LLM_MAY_APPROVE");
        boolean mayApprove = maySetting != null && bool(maySetting);
        Setting riskSetting = Setting.of(file, env, "max-risk", "SHELLGATE_LLM_MAX_RISK");
        Risk maxRisk = riskSetting == null ? DEFAULT_MAX_RISK : Risk.parse(riskSetting.value());
        if (maxRisk == null) {
            throw riskSetting.invalid("use low, medium or high; approvals count only below it");
        }
        Setting timeoutSetting = Setting.of(file, env, "timeout-seconds", "SHELLGATE_LLM_TIMEOUT_SECONDS");
        Duration timeout = timeoutSetting == null ? DEFAULT_TIMEOUT : seconds(timeoutSetting);
        return Optional.of(
                new LlmConfig(provider, baseUrl, modelSetting.value(), apiKey, mayApprove, maxRisk, timeout));
    }

    private static URI url(Setting s) {
        try {
            URI uri = new URI(s.value());
            String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
            if ((scheme.equals("http") || scheme.equals("https")) && uri.getHost() != null
                    && uri.getQuery() == null && uri.getFragment() == null) {
                return uri;
            }
        } catch (URISyntaxException e) {
            // reported below, with the hint
        }
        throw s.invalid("write an http or https URL without query, like http://localhost:11434 or https://api.openai.com/v1");
    }

    private static String apiKey(Map<String, String> file, Map<String, String> env, Provider provider, URI baseUrl) {
        String direct = env.get("SHELLGATE_LLM_API_KEY");
        String key = "";
        if (direct != null && !direct.isBlank()) {
            key = direct.strip();
        } else if (file.get("api-key-env") != null && !file.get("api-key-env").isBlank()) {
            String name = file.get("api-key-env").strip();
            String value = env.get(name);
            if (value == null || value.isBlank()) {
                throw new IllegalArgumentException("[review.llm] api-key-env names the environment variable " + name
                        + ", which is not set; export " + name + " or set SHELLGATE_LLM_API_KEY");
            }
            key = value.strip();
        }
        boolean needsKey = provider == Provider.ANTHROPIC
                || (provider != Provider.OLLAMA && baseUrl.equals(provider.defaultBaseUrl()));
        if (key.isEmpty() && needsKey) {
            throw new IllegalArgumentException("the LLM reviewer (provider " + provider.id() + " at " + baseUrl
                    + ") needs an API key: set SHELLGATE_LLM_API_KEY, or api-key-env in [review.llm] to the name of"
                    + " the variable holding it");
        }
        return key;
    }

    private static boolean bool(Setting s) {
        return switch (s.value().toLowerCase(Locale.ROOT)) {
            case "true" -> true;
            case "false" -> false;
            default -> throw s.invalid("use true or false");
        };
    }

    private static Duration seconds(Setting s) {
        long n;
        try {
            n = Long.parseLong(s.value());
        } catch (NumberFormatException e) {
            n = -1;
        }
        if (n < 1 || n > 3600) {
            throw s.invalid("write a whole number of seconds from 1 to 3600, like 20");
        }
        return Duration.ofSeconds(n);
    }

    /** One configured value and where it came from, for error messages. */
    private record Setting(String value, String source) {

        /** The environment's value if set, else the file's; null when neither is set or both are blank. */
        static Setting of(Map<String, String> file, Map<String, String> env, String fileKey, String envName) {
            String fromEnv = env.get(envName);
            if (fromEnv != null && !fromEnv.isBlank()) {
                return new Setting(fromEnv.strip(), "environment variable " + envName);
            }
            String fromFile = file.get(fileKey);
            if (fromFile != null && !fromFile.isBlank()) {
                return new Setting(fromFile.strip(), "[review.llm] " + fileKey);
            }
            return null;
        }

        IllegalArgumentException invalid(String fix) {
            return new IllegalArgumentException("LLM reviewer: " + source + " is \"" + value + "\"; " + fix);
        }
    }
}
