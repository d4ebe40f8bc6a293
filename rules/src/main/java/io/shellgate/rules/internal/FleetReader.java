package io.shellgate.rules.internal;

import static io.shellgate.rules.internal.NodeReader.path;

import com.fasterxml.jackson.databind.JsonNode;
import io.shellgate.rules.FleetSettings;
import io.shellgate.rules.Layer;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** Reads the {@code [managed]} table (the managed file only) and {@code [audit.otlp]} of one policy file. */
final class FleetReader {

    private static final Set<String> MANAGED_KEYS = Set.of("remembered-approvals", "llm-reviewer", "tighten-only");
    /** The OTLP protocols shellgate sends: http/protobuf (the JDK's client) and grpc (OkHttp). */
    private static final Set<String> PROTOCOLS = Set.of("http/protobuf", "grpc");

    private final NodeReader in;
    private final Layer layer;

    FleetReader(NodeReader in, Layer layer) {
        this.in = in;
        this.layer = layer;
    }

    FleetSpec read(JsonNode root) {
        Boolean approvals = null;
        Boolean llm = null;
        Boolean tightenOnly = null;
        JsonNode managed = in.table(root, List.of(), "managed");
        if (managed != null) {
            List<Object> p = List.of("managed");
            if (layer != Layer.MANAGED) {
                in.problem(p, "only the managed policy file (/etc/shellgate/policy.toml) may have a [managed] table");
            }
            in.checkKeys(managed, p, MANAGED_KEYS);
            approvals = in.bool(managed, p, "remembered-approvals");
            llm = in.bool(managed, p, "llm-reviewer");
            tightenOnly = in.bool(managed, p, "tighten-only");
        }
        return new FleetSpec(approvals, llm, tightenOnly, otlp(root));
    }

    private Map<String, String> otlp(JsonNode root) {
        Map<String, String> out = new LinkedHashMap<>();
        JsonNode audit = in.table(root, List.of(), "audit");
        if (audit == null) {
            return out;
        }
        // LayerReader checks the keys of [audit] and reads its required
        List<Object> p = List.of("audit", "otlp");
        JsonNode otlp = in.table(audit, List.of("audit"), "otlp");
        if (otlp == null) {
            return out;
        }
        in.checkKeys(otlp, p, FleetSettings.OTLP_KEYS);
        for (var it = otlp.fields(); it.hasNext(); ) {
            var e = it.next();
            JsonNode v = e.getValue();
            if (v.isTextual() || v.isNumber() || v.isBoolean()) {
                out.put(e.getKey(), v.asText());
            } else {
                in.problem(path(p, e.getKey()), "must be a string, a number or true/false");
            }
        }
        check(out, p);
        return out;
    }

    private void check(Map<String, String> otlp, List<Object> p) {
        String endpoint = otlp.get("endpoint");
        if (endpoint != null && !endpoint.startsWith("http://") && !endpoint.startsWith("https://")) {
            in.problem(path(p, "endpoint"), "'" + endpoint + "' is not an http:// or https:// URL (the collector's"
                    + " OTLP address, such as \"http://collector.example:4318\")");
        }
        String protocol = otlp.get("protocol");
        if (protocol != null && !PROTOCOLS.contains(protocol)) {
            in.problem(path(p, "protocol"), "'" + protocol + "' is not a protocol shellgate sends; use \"http/protobuf\" or \"grpc\"");
        }
        number(otlp, p, "timeout-seconds", 1, 60);
        number(otlp, p, "queue-max-mb", 1, 1024);
        String metrics = otlp.get("metrics");
        if (metrics != null && !metrics.equals("true") && !metrics.equals("false")) {
            in.problem(path(p, "metrics"), "must be true or false");
        }
    }

    private void number(Map<String, String> otlp, List<Object> p, String key, int min, int max) {
        String v = otlp.get(key);
        if (v != null && !(v.length() <= 4 && !v.isEmpty() && v.chars().allMatch(c -> c >= '0' && c <= '9')
                && Integer.parseInt(v) >= min && Integer.parseInt(v) <= max)) {
            in.problem(path(p, key), "must be a whole number from " + min + " to " + max);
        }
    }
}
