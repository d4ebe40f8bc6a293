package io.shellgate.interceptor.internal;

import java.nio.file.Path;

/**
 * Who asks: this JVM's process id, its main class (what a person reviewing sees), and the session
 * approvals are bound to ({@code $SHELLGATE_SESSION} when set, else this JVM).
 */
record OriginInfo(long pid, String detail, String session) {

    static OriginInfo current() {
        long pid = ProcessHandle.current().pid();
        String command = System.getProperty("sun.java.command", "");
        String main = command.isBlank() ? "" : command.trim().split("\\s+")[0];
        if (main.endsWith(".jar")) {
            main = Path.of(main).getFileName().toString();
        }
        String session = System.getenv("SHELLGATE_SESSION");
        return new OriginInfo(pid, main, session == null || session.isEmpty() ? "jvm-" + pid : session);
    }

    /** The agent jar this class was loaded from, or null when it was not loaded from a jar. */
    static Path agentJar() {
        try {
            Path p = Path.of(OriginInfo.class.getProtectionDomain().getCodeSource().getLocation().toURI());
            return p.toString().endsWith(".jar") ? p : null;
        } catch (Exception | Error e) {
            return null;
        }
    }
}
