package io.shellgate.reviewer.internal.export;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.common.AttributesBuilder;
import io.opentelemetry.api.logs.Severity;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.sdk.common.InstrumentationScopeInfo;
import io.opentelemetry.sdk.logs.data.Body;
import io.opentelemetry.sdk.logs.data.LogRecordData;
import io.opentelemetry.sdk.resources.Resource;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * Audit records as OTLP log records: every field of the local record (already redacted and
 * bounded there) becomes the attribute {@code shellgate.FIELD}, with {@code shellgate.host} and
 * {@code shellgate.user} from the resource, the command is also the body, the
 * record's time is the record's, and a decision that did not run is a warning.
 */
final class DecisionRecords {

    static final String PREFIX = "shellgate.";
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final InstrumentationScopeInfo SCOPE = InstrumentationScopeInfo.create("io.shellgate.audit");

    private DecisionRecords() {}

    /** One queued line as JSON; null when it is not a JSON object (it is skipped). */
    static JsonNode parse(String line) {
        try {
            JsonNode record = JSON.readTree(line);
            return record != null && record.isObject() ? record : null;
        } catch (Exception e) {
            return null;
        }
    }

    /** The log record of one audit record. */
    static LogRecordData of(JsonNode record, Resource resource) {
        long nanos = time(record.path("time").asText(""));
        AttributesBuilder attributes = Attributes.builder();
        for (Iterator<Map.Entry<String, JsonNode>> it = record.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            if (!e.getKey().equals("time")) {
                put(attributes, PREFIX + e.getKey(), e.getValue());
            }
        }
        // who and where, on the record itself as well as on the resource: a collector that drops
        // or flattens resources (or batches several machines' records) keeps them
        String host = resource.getAttribute(AttributeKey.stringKey("host.name"));
        String user = resource.getAttribute(AttributeKey.stringKey("user.name"));
        if (host != null && !record.has("host")) {
            attributes.put(PREFIX + "host", host);
        }
        if (user != null && !record.has("user")) {
            attributes.put(PREFIX + "user", user);
        }
        // a null run (the client never took the answer) is not known to have been refused
        JsonNode run = record.path("run");
        boolean ran = run.isMissingNode() || run.isBoolean() && run.asBoolean();
        Severity severity = ran ? Severity.INFO : Severity.WARN;
        return new Decision(resource, nanos, severity, record.path("cmd").asText(""), attributes.build());
    }

    private static void put(AttributesBuilder out, String key, JsonNode v) {
        if (v.isTextual()) {
            out.put(key, v.asText());
        } else if (v.isBoolean()) {
            out.put(key, v.asBoolean());
        } else if (v.isIntegralNumber()) {
            out.put(key, v.asLong());
        } else if (v.isNumber()) {
            out.put(key, v.asDouble());
        } else if (v.isArray()) {
            List<String> items = new ArrayList<>();
            v.forEach(item -> items.add(item.isTextual() ? item.asText() : item.toString()));
            out.put(AttributeKey.stringArrayKey(key), items);
        } else if (!v.isNull()) {
            out.put(key, v.toString());
        }
    }

    private static long time(String text) {
        try {
            Instant t = Instant.parse(text);
            return t.getEpochSecond() * 1_000_000_000L + t.getNano();
        } catch (DateTimeParseException e) {
            return System.currentTimeMillis() * 1_000_000L;
        }
    }

    /** One decision as the SDK's exporter takes it. */
    private record Decision(Resource resource, long nanos, Severity severity, String command, Attributes attributes)
            implements LogRecordData {

        @Override
        public Resource getResource() {
            return resource;
        }

        @Override
        public InstrumentationScopeInfo getInstrumentationScopeInfo() {
            return SCOPE;
        }

        @Override
        public long getTimestampEpochNanos() {
            return nanos;
        }

        @Override
        public long getObservedTimestampEpochNanos() {
            return nanos;
        }

        @Override
        public SpanContext getSpanContext() {
            return SpanContext.getInvalid();
        }

        @Override
        public Severity getSeverity() {
            return severity;
        }

        @Override
        public String getSeverityText() {
            return severity == Severity.INFO ? "INFO" : "WARN";
        }

        @Override
        @SuppressWarnings("deprecation")
        public Body getBody() {
            return Body.string(command);
        }

        @Override
        public Attributes getAttributes() {
            return attributes;
        }

        @Override
        public int getTotalAttributeCount() {
            return attributes.size();
        }
    }
}
