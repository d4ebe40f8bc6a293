package io.shellgate.reviewer.internal.export;

import com.fasterxml.jackson.databind.JsonNode;
import io.opentelemetry.exporter.otlp.http.logs.OtlpHttpLogRecordExporter;
import io.opentelemetry.exporter.otlp.http.logs.OtlpHttpLogRecordExporterBuilder;
import io.opentelemetry.exporter.otlp.logs.OtlpGrpcLogRecordExporter;
import io.opentelemetry.exporter.otlp.logs.OtlpGrpcLogRecordExporterBuilder;
import io.opentelemetry.sdk.logs.export.LogRecordExporter;
import io.opentelemetry.sdk.common.CompletableResultCode;
import io.opentelemetry.sdk.logs.data.LogRecordData;
import io.opentelemetry.sdk.resources.Resource;
import java.lang.System.Logger.Level;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * Exports the audit records of one configuration over OTLP from a thread of its own. The thread
 * that made a decision only puts its record in memory (or, when memory is full, in the on-disk
 * queue): the collector is never waited for. Records the collector did not take (it is down,
 * slow or answers an error) wait in the on-disk queue, and go out, oldest first, once it takes
 * records again. In a process that does not ship (a one-shot {@code shellgate -c}), records only
 * go to the queue, for the judge server to send.
 */
final class Shipper implements AuditSink {

    static final String JUDGE_US = "judge-us";
    static final String REVIEW_MS = "review-ms";
    private static final System.Logger LOG = System.getLogger("io.shellgate.reviewer");
    private static final int MEMORY = 4096;
    private static final int BATCH = 512;

    private final OtlpConfig config;
    private final ExportQueue queue;
    private final Resource resource;
    private final LogRecordExporter exporter;
    private final DecisionMetrics metrics;
    private final boolean sends;
    private final Duration minBackoff;
    private final Duration maxBackoff;
    private final long gatherNanos;
    private final ArrayBlockingQueue<String> memory = new ArrayBlockingQueue<>(MEMORY);
    private final Thread thread;
    /** What the thread is sending now, spilled at exit unless the collector took it. */
    private volatile List<String> inFlight = List.of();
    private volatile ExportQueue.Claim claimed;
    private long backoffNanos;
    private long retryAt;
    private volatile boolean failing;

    /**
     * @param gather how long records that cannot be sent now are gathered into one queue file
     */
    Shipper(OtlpConfig config, ExportQueue queue, boolean sends, Duration metricInterval, Duration minBackoff,
            Duration maxBackoff, Duration gather) {
        this.gatherNanos = gather.toNanos();
        this.config = config;
        this.queue = queue;
        this.sends = sends;
        this.minBackoff = minBackoff;
        this.maxBackoff = maxBackoff;
        this.resource = Resources.of(config);
        if (sends) {
            exporter = exporter(config);
            metrics = config.metrics() == null ? null : new DecisionMetrics(config, resource, metricInterval);
        } else {
            exporter = null;
            metrics = null;
        }
        thread = Thread.ofPlatform().daemon().name("shellgate-otlp-export").unstarted(this::run);
        thread.start();
        Runtime.getRuntime().addShutdownHook(Thread.ofPlatform().unstarted(this::atExit));
    }

    /** The log exporter for the configured protocol; the on-disk queue retries, so the exporter does not. */
    private static LogRecordExporter exporter(OtlpConfig config) {
        if (config.grpc()) {
            OtlpGrpcLogRecordExporterBuilder b = OtlpGrpcLogRecordExporter.builder().setComponentLoader(Senders.ONLY)
                    .setEndpoint(config.logs().toString()).setTimeout(config.timeout()).setRetryPolicy(null);
            config.headers().forEach(b::addHeader);
            return b.build();
        }
        OtlpHttpLogRecordExporterBuilder b = OtlpHttpLogRecordExporter.builder().setComponentLoader(Senders.ONLY)
                .setEndpoint(config.logs().toString()).setTimeout(config.timeout()).setRetryPolicy(null);
        config.headers().forEach(b::addHeader);
        return b.build();
    }

    @Override
    public void accept(String line) {
        long[] t = DecisionClock.take();
        String entry = line;
        if (line.endsWith("}") && (t[0] >= 0 || t[1] >= 0)) {
            entry = line.substring(0, line.length() - 1) + (t[0] >= 0 ? ",\"" + JUDGE_US + "\":" + t[0] : "")
                    + (t[1] >= 0 ? ",\"" + REVIEW_MS + "\":" + t[1] : "") + "}";
        }
        if (!memory.offer(entry)) {
            // the thread is behind (a slow collector): the disk takes it, never the network
            queue.spill(List.of(entry));
        }
        LockSupport.unpark(thread);
    }

    /** Whether the last try to reach the collector failed. */
    boolean failing() {
        return failing;
    }

    OtlpConfig config() {
        return config;
    }

    private void run() {
        queue.recoverStale();
        while (true) {
            List<String> batch = new ArrayList<>();
            memory.drainTo(batch, BATCH);
            if (!batch.isEmpty()) {
                if (!sends || System.nanoTime() < retryAt) {
                    inFlight = List.copyOf(batch);
                    gather(batch);
                    queue.spill(batch);
                    inFlight = List.of();
                } else {
                    inFlight = batch;
                    if (!send(batch)) {
                        queue.spill(batch);
                    }
                    inFlight = List.of();
                }
                continue;
            }
            if (sends && System.nanoTime() >= retryAt && sendQueued()) {
                continue;
            }
            LockSupport.parkNanos(sends && retryAt > System.nanoTime() ? Math.min(retryAt - System.nanoTime(),
                    1_000_000_000L) : 1_000_000_000L);
        }
    }

    /**
     * Nothing can be sent now: what arrives in the next moment (until a retry is due, {@code gather}
     * at most, or until memory is half full) joins the batch, so that a collector that is down costs one queue file a second, not one
     * per decision. Records wait in memory meanwhile, where {@link #atExit} finds them.
     */
    private void gather(List<String> batch) {
        long until = System.nanoTime() + gatherNanos;
        if (sends) {
            until = Math.min(until, retryAt);
        }
        long left;
        // accept() wakes this thread at every record: park again until the moment is over
        while (memory.size() < MEMORY / 2 && (left = until - System.nanoTime()) > 0) {
            LockSupport.parkNanos(left);
        }
        memory.drainTo(batch);
    }

    /** Sends the oldest queued batch; false when there was none or it failed. */
    private boolean sendQueued() {
        ExportQueue.Claim c = queue.claim();
        if (c == null) {
            return false;
        }
        claimed = c;
        boolean ok = send(c.lines());
        if (ok) {
            queue.done(c);
        } else {
            queue.release(c);
        }
        claimed = null;
        return ok;
    }

    private boolean send(List<String> lines) {
        List<LogRecordData> records = new ArrayList<>(lines.size());
        List<JsonNode> parsed = new ArrayList<>(lines.size());
        for (String line : lines) {
            JsonNode r = DecisionRecords.parse(line);
            if (r != null) {
                parsed.add(r);
                records.add(DecisionRecords.of(r, resource));
            }
        }
        if (records.isEmpty()) {
            return true;
        }
        CompletableResultCode result;
        try {
            result = exporter.export(records).join(config.timeout().toMillis() + 1000, TimeUnit.MILLISECONDS);
        } catch (RuntimeException e) {
            result = CompletableResultCode.ofFailure();
        }
        if (!result.isSuccess()) {
            if (!failing) {
                LOG.log(Level.WARNING, "shellgate: the OTLP collector at " + config.logs() + " did not take the audit records;"
                        + " they wait in " + queue.directory() + " and are sent when it does");
            }
            failing = true;
            backoffNanos = backoffNanos == 0 ? minBackoff.toNanos() : Math.min(backoffNanos * 2, maxBackoff.toNanos());
            retryAt = System.nanoTime() + backoffNanos;
            return false;
        }
        failing = false;
        backoffNanos = 0;
        retryAt = 0;
        if (metrics != null) {
            parsed.forEach(metrics::record);
        }
        return true;
    }

    /** At exit nothing is sent: what is in memory or being sent goes to the queue, and a claim goes back. */
    private void atExit() {
        List<String> rest = new ArrayList<>(inFlight);
        memory.drainTo(rest);
        queue.spill(rest);
        ExportQueue.Claim c = claimed;
        if (c != null) {
            queue.release(c);
        }
    }
}
