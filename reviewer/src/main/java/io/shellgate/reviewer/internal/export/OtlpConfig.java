package io.shellgate.reviewer.internal.export;

import io.shellgate.rules.FleetSettings;
import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * Where and how decisions are exported over OTLP: the policy's {@code [audit.otlp]} table, with
 * the standard {@code OTEL_*} variables of the gate's own environment beating it key by key,
 * except for the keys the managed policy pinned.
 *
 * @param logs where log records go ({@code ENDPOINT/v1/logs}; over gRPC the endpoint itself)
 * @param metrics where metrics go ({@code ENDPOINT/v1/metrics}; over gRPC the endpoint itself), or
 *     null when metrics are off
 * @param headers sent with every request (an authorization header, say)
 * @param resource the resource attributes, {@code service.name} included
 * @param timeout how long one request may take
 * @param queueMaxBytes the most the on-disk queue holds; records beyond it are dropped and counted
 * @param grpc whether the protocol is {@code grpc} (else {@code http/protobuf})
 */
public record OtlpConfig(URI logs, URI metrics, Map<String, String> headers, Map<String, String> resource,
        Duration timeout, long queueMaxBytes, boolean grpc) {

    static final String DEFAULT_SERVICE = "shellgate";
    static final int DEFAULT_QUEUE_MB = 64;

    public OtlpConfig {
        headers = Map.copyOf(headers);
        resource = Map.copyOf(resource);
    }

    /**
     * The export configured by {@code fleet} (the merged policy's) and {@code env} (the gate's own
     * environment, never a command's); empty when no endpoint is set or {@code OTEL_SDK_DISABLED=true}.
     *
     * @throws IllegalArgumentException when a value cannot be used, naming it
     */
    public static Optional<OtlpConfig> resolve(FleetSettings fleet, Map<String, String> env) {
        Map<String, String> file = fleet.otlp();
        Lookup in = new Lookup(file, fleet.pinnedOtlp(), env);
        String endpoint = in.get("endpoint", "OTEL_EXPORTER_OTLP_ENDPOINT");
        if (endpoint == null || endpoint.isBlank()
                || !fleet.pinnedOtlp().contains("endpoint") && "true".equalsIgnoreCase(env.get("OTEL_SDK_DISABLED"))) {
            return Optional.empty();
        }
        String protocol = in.get("protocol", "OTEL_EXPORTER_OTLP_PROTOCOL");
        if (protocol != null && !protocol.equals("http/protobuf") && !protocol.equals("grpc")) {
            throw new IllegalArgumentException("OTLP protocol '" + protocol + "' is not sent by shellgate; use http/protobuf"
                    + " (a collector's port 4318) or grpc (port 4317)");
        }
        boolean grpc = "grpc".equals(protocol);
        URI base = uri(endpoint, "endpoint");
        String logsOwn = fleet.pinnedOtlp().contains("endpoint") ? null : env.get("OTEL_EXPORTER_OTLP_LOGS_ENDPOINT");
        // over gRPC every signal goes to the endpoint itself (the service names the signal)
        URI logs = logsOwn != null && !logsOwn.isBlank() ? uri(logsOwn, "OTEL_EXPORTER_OTLP_LOGS_ENDPOINT")
                : grpc ? base : signal(base, "logs");
        String metricsOn = in.get("metrics", null);
        boolean metrics = !"false".equals(metricsOn)
                && !(in.envAllowed("metrics") && "none".equals(env.get("OTEL_METRICS_EXPORTER")));
        Map<String, String> resource = new LinkedHashMap<>(pairs(in.get("resource-attributes", "OTEL_RESOURCE_ATTRIBUTES"),
                "resource-attributes"));
        String service = in.get("service-name", "OTEL_SERVICE_NAME");
        resource.put("service.name", service != null && !service.isBlank() ? service
                : resource.getOrDefault("service.name", DEFAULT_SERVICE));
        String timeoutSeconds = file.get("timeout-seconds");
        Duration timeout = Duration.ofSeconds(timeoutSeconds == null ? 10 : Integer.parseInt(timeoutSeconds));
        String envTimeout = in.envAllowed("timeout-seconds") ? env.get("OTEL_EXPORTER_OTLP_TIMEOUT") : null;
        if (envTimeout != null && !envTimeout.isBlank()) {
            timeout = Duration.ofMillis(number(envTimeout, "OTEL_EXPORTER_OTLP_TIMEOUT", 1, 600_000));
        }
        String queue = file.get("queue-max-mb");
        long queueMax = (queue == null ? DEFAULT_QUEUE_MB : Integer.parseInt(queue)) * 1024L * 1024L;
        return Optional.of(new OtlpConfig(logs, metrics ? (grpc ? base : signal(base, "metrics")) : null,
                pairs(in.get("headers", "OTEL_EXPORTER_OTLP_HEADERS"), "headers"), resource, timeout, queueMax, grpc));
    }

    /** A key's value: the variable's when it is set and the key is not pinned, else the file's. */
    private record Lookup(Map<String, String> file, java.util.Set<String> pinned, Map<String, String> env) {

        boolean envAllowed(String key) {
            return !pinned.contains(key);
        }

        String get(String key, String variable) {
            String own = variable == null || !envAllowed(key) ? null : env.get(variable);
            return own != null && !own.isBlank() ? own.strip() : file.get(key);
        }
    }

    private static URI uri(String text, String what) {
        try {
            URI u = new URI(text.strip());
            if (!"http".equals(u.getScheme()) && !"https".equals(u.getScheme()) || u.getHost() == null) {
                throw new IllegalArgumentException("the OTLP " + what + " '" + text + "' is not an http:// or https:// URL");
            }
            return u;
        } catch (java.net.URISyntaxException e) {
            throw new IllegalArgumentException("the OTLP " + what + " '" + text + "' is not a URL: " + e.getReason());
        }
    }

    /** {@code base/v1/SIGNAL}, as the OTLP specification builds it from the general endpoint. */
    private static URI signal(URI base, String signal) {
        String s = base.toString();
        return URI.create((s.endsWith("/") ? s : s + "/") + "v1/" + signal);
    }

    /** {@code k=v,k2=v2} with URL-encoded values, as {@code OTEL_EXPORTER_OTLP_HEADERS} and {@code OTEL_RESOURCE_ATTRIBUTES} are written. */
    static Map<String, String> pairs(String text, String what) {
        Map<String, String> out = new LinkedHashMap<>();
        if (text == null || text.isBlank()) {
            return out;
        }
        for (String pair : text.split(",")) {
            int eq = pair.indexOf('=');
            if (pair.isBlank()) {
                continue;
            }
            if (eq <= 0) {
                throw new IllegalArgumentException("the OTLP " + what + " entry '" + pair.strip() + "' is not key=value");
            }
            out.put(pair.substring(0, eq).strip(), URLDecoder.decode(pair.substring(eq + 1).strip(), StandardCharsets.UTF_8));
        }
        return out;
    }

    private static int number(String text, String what, int min, int max) {
        try {
            int n = Integer.parseInt(text.strip());
            if (n >= min && n <= max) {
                return n;
            }
        } catch (NumberFormatException e) {
            // said below
        }
        throw new IllegalArgumentException(what + "='" + text + "' is not a whole number from " + min + " to " + max);
    }

    /** Never shows the headers' values: they often hold a token. */
    @Override
    public String toString() {
        return "OtlpConfig[logs=" + logs + ", metrics=" + metrics + ", headers=" + headers.keySet() + ", resource="
                + resource + ", timeout=" + timeout + ", queueMaxBytes=" + queueMaxBytes + "]";
    }
}
