package io.shellgate.reviewer;

import io.shellgate.reviewer.config.StateDir;
import io.shellgate.reviewer.internal.AuditLog;
import io.shellgate.reviewer.model.AuditReport;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/** Reads the audit log: one JSON object per decision, oldest first. */
public final class AuditTrail {

    private AuditTrail() {}

    /** Where the log lives in this environment; null when no state directory is known. */
    public static Path directory(Map<String, String> env) {
        return StateDir.of(env);
    }

    /**
     * Checks the hash chain of every record kept: an edited, removed or inserted line, or newest
     * lines removed, each make a problem saying where. Null when no state directory is known.
     */
    public static AuditReport verify(Map<String, String> env) throws IOException {
        Path dir = StateDir.of(env);
        return dir == null ? null : new AuditLog(dir).verify();
    }

    /** Every record, rotated files included, oldest first; empty when there is no log. */
    public static List<String> lines(Map<String, String> env) throws IOException {
        Path dir = StateDir.of(env);
        return dir == null ? List.of() : new AuditLog(dir).lines();
    }
}
