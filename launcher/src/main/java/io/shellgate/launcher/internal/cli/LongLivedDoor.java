package io.shellgate.launcher.internal.cli;

import io.shellgate.reviewer.AuditExport;
import java.util.HashMap;
import java.util.Map;

/** How a door that lives on ({@code shellgate shell}, a stdin session) starts, the same way for both. */
public final class LongLivedDoor {

    private LongLivedDoor() {}

    /**
     * Sends the audit records of the one-shot doors from this process too (it lives on), and gives the
     * environment this process was started with, less the launcher script's own marker.
     */
    public static Map<String, String> start() {
        AuditExport.shipFromHere();
        Map<String, String> env = new HashMap<>(System.getenv());
        env.remove("SHELLGATE_LAUNCHER");
        return env;
    }
}
