package io.shellgate.reviewer.model;

import java.util.Locale;

/** Where a command line came in: each way into shellgate has its own id in the audit log. */
public enum EntryPoint {
    /** {@code shellgate -c CMD}, the drop-in shell. */
    SHELL_C,
    /** A guarded stdin session ({@code shellgate -s}, or a shell reading its commands from a pipe). */
    STDIN_SESSION,
    /** The interactive PTY proxy. */
    PTY,
    /** The {@code -javaagent} inside a JVM tool. */
    JAVAAGENT,
    /** An agent's hook ({@code shellgate hook claude-code}). */
    HOOK;

    /** The kebab-case id used in the audit log and the protocol. */
    public String id() {
        return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    /** Parses an id; null when it is not one. */
    public static EntryPoint parse(String id) {
        for (EntryPoint e : values()) {
            if (e.id().equals(id)) {
                return e;
            }
        }
        return null;
    }
}
