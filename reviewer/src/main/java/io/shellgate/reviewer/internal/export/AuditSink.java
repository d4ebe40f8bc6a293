package io.shellgate.reviewer.internal.export;

/** Receives each audit record once it is in the local log (which stays the source of truth). */
public interface AuditSink {

    /** Takes one finished record, a line of JSON; must return at once, whatever happens to it next. */
    void accept(String line);

    /** Nothing is exported. */
    AuditSink NONE = line -> {};
}
