package io.shellgate.reviewer;

import io.shellgate.reviewer.config.StateDir;
import io.shellgate.reviewer.internal.export.Exports;
import io.shellgate.rules.Policy;
import java.util.List;
import java.util.Map;

/**
 * The export of audit records over OTLP (configured by the policy's {@code [audit.otlp]} and the
 * gate's own {@code OTEL_*} variables). Every gate exports what it logs; records wait in an
 * on-disk queue in the state directory until a process that lives long enough sends them.
 */
public final class AuditExport {

    private AuditExport() {}

    /**
     * Says that this process lives long enough to send records (the judge server, the javaagent,
     * the interactive and stdin shells): its own, and the queue's, are sent from here. Call it before
     * the first decision.
     */
    public static void shipFromHere() {
        Exports.shipFromHere();
    }

    /**
     * Mutes the OpenTelemetry SDK's own warnings about exports that failed, which would reach the
     * terminal; for shellgate's own processes, never a host JVM's.
     */
    public static void muteSdkWarnings() {
        Exports.muteSdkWarnings();
    }

    /** What {@code shellgate doctor} shows: where records go, what waits in the queue, what was dropped. */
    public static List<String> status(Policy policy, Map<String, String> env) {
        return Exports.status(policy, env, StateDir.of(env));
    }
}
