package io.shellgate.reviewer.internal.export;

import com.fasterxml.jackson.databind.JsonNode;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.metrics.DoubleHistogram;
import io.opentelemetry.api.metrics.LongCounter;
import io.opentelemetry.api.metrics.Meter;
import io.opentelemetry.exporter.otlp.http.metrics.OtlpHttpMetricExporter;
import io.opentelemetry.exporter.otlp.http.metrics.OtlpHttpMetricExporterBuilder;
import io.opentelemetry.exporter.otlp.metrics.OtlpGrpcMetricExporter;
import io.opentelemetry.exporter.otlp.metrics.OtlpGrpcMetricExporterBuilder;
import io.opentelemetry.sdk.metrics.export.MetricExporter;
import io.opentelemetry.sdk.metrics.SdkMeterProvider;
import io.opentelemetry.sdk.metrics.export.PeriodicMetricReader;
import io.opentelemetry.sdk.resources.Resource;
import java.time.Duration;

/**
 * The metrics sent beside the records: decisions by entry point, tier, step and outcome; the
 * judge's latency; and how long asks took, by who answered them. They are counted from the
 * records this process exports (those of one-shot processes included, which the server sends),
 * and sent every {@code OTEL_METRIC_EXPORT_INTERVAL} milliseconds (60 s by default).
 */
final class DecisionMetrics {

    private static final AttributeKey<String> ENTRY = AttributeKey.stringKey("shellgate.entry");
    private static final AttributeKey<String> TIER = AttributeKey.stringKey("shellgate.tier");
    private static final AttributeKey<String> STEP = AttributeKey.stringKey("shellgate.step");
    private static final AttributeKey<Boolean> RUN = AttributeKey.booleanKey("shellgate.run");

    private final SdkMeterProvider provider;
    private final LongCounter decisions;
    private final DoubleHistogram judge;
    private final DoubleHistogram review;

    DecisionMetrics(OtlpConfig config, Resource resource, Duration interval) {
        provider = SdkMeterProvider.builder()
                .setResource(resource)
                .registerMetricReader(PeriodicMetricReader.builder(exporter(config)).setInterval(interval).build())
                .build();
        Meter meter = provider.get("io.shellgate.audit");
        decisions = meter.counterBuilder("shellgate.decisions").setUnit("{decision}")
                .setDescription("decisions on command lines, by entry point, tier, step and whether the command ran").build();
        judge = meter.histogramBuilder("shellgate.judge.duration").setUnit("ms")
                .setDescription("how long the judge took on a command line").build();
        review = meter.histogramBuilder("shellgate.ask.duration").setUnit("s")
                .setDescription("how long an ask took to be answered, by the step that answered it").build();
    }

    void record(JsonNode r) {
        String entry = r.path("entry").asText("");
        String tier = r.path("tier").asText("");
        String step = r.path("step").asText("");
        boolean run = r.path("run").asBoolean(false);
        decisions.add(1, Attributes.of(ENTRY, entry, TIER, tier, STEP, step, RUN, run));
        long judgeMicros = r.path(Shipper.JUDGE_US).asLong(-1);
        if (judgeMicros >= 0) {
            judge.record(judgeMicros / 1000.0, Attributes.of(ENTRY, entry));
        }
        long reviewMillis = r.path(Shipper.REVIEW_MS).asLong(-1);
        if (tier.equals("ask") && reviewMillis >= 0) {
            review.record(reviewMillis / 1000.0, Attributes.of(ENTRY, entry, STEP, step, RUN, run));
        }
    }

    void close() {
        provider.shutdown();
    }

    private static MetricExporter exporter(OtlpConfig config) {
        if (config.grpc()) {
            OtlpGrpcMetricExporterBuilder b = OtlpGrpcMetricExporter.builder().setComponentLoader(Senders.ONLY)
                    .setEndpoint(config.metrics().toString()).setTimeout(config.timeout()).setRetryPolicy(null);
            config.headers().forEach(b::addHeader);
            return b.build();
        }
        OtlpHttpMetricExporterBuilder b = OtlpHttpMetricExporter.builder().setComponentLoader(Senders.ONLY)
                .setEndpoint(config.metrics().toString()).setTimeout(config.timeout()).setRetryPolicy(null);
        config.headers().forEach(b::addHeader);
        return b.build();
    }
}
