package io.shellgate.reviewer.internal.export;

import io.shellgate.rules.FleetSettings;
import io.shellgate.rules.Policy;
import java.lang.System.Logger.Level;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The export of this process's audit records: one {@link Shipper} per distinct configuration and
 * state directory, made on first use. Only processes that live long enough to send (the judge
 * server, the javaagent, the interactive and stdin shells) say so with {@link #shipFromHere()};
 * in the others, records wait in the on-disk queue for one of those.
 */
public final class Exports {

    private static final System.Logger LOG = System.getLogger("io.shellgate.reviewer");
    private static final Map<String, Shipper> SHIPPERS = new HashMap<>();
    private static final Set<String> WARNED = new HashSet<>();
    private static volatile boolean shipsHere;
    /** Held here: the logging framework keeps its loggers, and so their levels, only while someone does. */
    private static final List<java.util.logging.Logger> MUTED = new ArrayList<>();

    private Exports() {}

    /** This process lives long enough to send records: its exports, and the queue's, go out from here. */
    public static void shipFromHere() {
        shipsHere = true;
    }

    /**
     * Mutes the OpenTelemetry SDK's own warnings about failed exports: in shellgate's own processes
     * they would reach the user's terminal every minute while the collector is down. The shipper says
     * it once, and {@code shellgate doctor} shows what waits. Not for the javaagent: in a host JVM
     * these loggers may be the application's own.
     */
    public static void muteSdkWarnings() {
        synchronized (MUTED) {
            for (String name : List.of("io.opentelemetry.exporter", "io.opentelemetry.sdk.metrics.export")) {
                java.util.logging.Logger logger = java.util.logging.Logger.getLogger(name);
                logger.setLevel(java.util.logging.Level.OFF);
                MUTED.add(logger);
            }
        }
    }

    /** The queue of records not yet exported, under a state directory. */
    static Path queueDirectory(Path stateDir) {
        return stateDir.resolve("otlp-queue");
    }

    /**
     * Where the audit records of a policy's decisions go besides the local log: {@link
     * AuditSink#NONE} when no OTLP endpoint is configured, or no state directory holds the queue.
     *
     * @param fleet the merged policy's (its {@code [audit.otlp]}, what the managed layer pinned);
     *     {@link FleetSettings#NONE} for a refusal made before any policy could be read
     * @param env the gate's own environment (its {@code OTEL_*} variables), never a command's
     */
    public static AuditSink sink(FleetSettings fleet, Map<String, String> env, Path stateDir) {
        if (stateDir == null) {
            return AuditSink.NONE;
        }
        Optional<OtlpConfig> config;
        try {
            config = OtlpConfig.resolve(fleet, env);
        } catch (IllegalArgumentException e) {
            synchronized (WARNED) {
                if (WARNED.add(e.getMessage())) {
                    LOG.log(Level.WARNING, "shellgate: audit records are not exported: " + e.getMessage());
                }
            }
            return AuditSink.NONE;
        }
        if (config.isEmpty()) {
            return AuditSink.NONE;
        }
        String key = config.get() + "\u0000" + config.get().headers() + "\u0000" + stateDir + "\u0000" + shipsHere;
        synchronized (SHIPPERS) {
            return SHIPPERS.computeIfAbsent(key, k -> new Shipper(config.get(),
                    new ExportQueue(queueDirectory(stateDir), config.get().queueMaxBytes()), shipsHere,
                    metricInterval(env), Duration.ofMillis(250), Duration.ofSeconds(10), Duration.ofSeconds(1)));
        }
    }

    /**
     * What {@code shellgate doctor} says about the export: where to, whether the collector took
     * the last records, what waits in the queue and how much was dropped.
     */
    public static List<String> status(Policy policy, Map<String, String> env, Path stateDir) {
        List<String> out = new ArrayList<>();
        Optional<OtlpConfig> config;
        try {
            config = OtlpConfig.resolve(policy.fleet(), env);
        } catch (IllegalArgumentException e) {
            out.add("not exported: " + e.getMessage());
            return out;
        }
        if (config.isEmpty()) {
            out.add("not exported (no OTLP endpoint: set [audit.otlp] endpoint or OTEL_EXPORTER_OTLP_ENDPOINT)");
            return out;
        }
        OtlpConfig c = config.get();
        out.add("OTLP logs to " + c.logs() + (c.metrics() == null ? ", no metrics" : ", metrics to " + c.metrics())
                + (policy.fleet().pinnedOtlp().isEmpty() ? "" : " (pinned by the managed policy: "
                        + String.join(", ", policy.fleet().pinnedOtlp().stream().sorted().toList()) + ")"));
        if (stateDir != null) {
            ExportQueue q = new ExportQueue(queueDirectory(stateDir), c.queueMaxBytes());
            long[] waiting = q.waiting();
            out.add("queue " + q.directory() + ": " + waiting[0] + " batch(es), " + waiting[1] + " bytes waiting (at most "
                    + c.queueMaxBytes() / (1024 * 1024) + " MiB); " + q.dropped() + " record(s) dropped");
        }
        return out;
    }

    private static Duration metricInterval(Map<String, String> env) {
        String ms = env.get("OTEL_METRIC_EXPORT_INTERVAL");
        try {
            long v = ms == null ? 60_000 : Long.parseLong(ms.strip());
            return Duration.ofMillis(Math.max(100, Math.min(v, 3_600_000)));
        } catch (NumberFormatException e) {
            return Duration.ofSeconds(60);
        }
    }
}
