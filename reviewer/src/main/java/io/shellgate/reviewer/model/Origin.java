package io.shellgate.reviewer.model;

import java.util.Objects;

/**
 * Who asked for a command line to run.
 *
 * @param entry the way in
 * @param pid the process that would start the command (the shell, the JVM), or 0 when unknown
 * @param detail a short description for the person reviewing (the JVM's main class, the agent's
 *     name); may be empty
 * @param session the session an "always for this session" approval is bound to (a wrap run, a
 *     PTY proxy, a JVM); may be empty when the entry point has no session
 */
public record Origin(EntryPoint entry, long pid, String detail, String session) {

    public Origin {
        Objects.requireNonNull(entry, "entry");
        detail = detail == null ? "" : detail;
        session = session == null ? "" : session;
    }
}
