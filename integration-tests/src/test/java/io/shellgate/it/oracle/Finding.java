package io.shellgate.it.oracle;

import java.util.Locale;
/**
 * Something an allowed line did that a read-only line must not do.
 *
 * @param kind the class of the effect
 * @param detail what exactly: the system call and its path, program or address
 */
record Finding(Kind kind, String detail) {

    /** The classes of effects, in the order the report lists them. */
    enum Kind {
        /** Created, wrote, truncated, deleted, renamed or changed the metadata of a file. */
        WRITE,
        /** Ran a program the judge did not judge. */
        EXEC,
        /** Opened a canary secret, or printed a canary string. */
        SECRET,
        /** Opened a network socket, or reached a local service through a socket. */
        NETWORK,
        /** Tried to change the system: host name, clock, mounts, network configuration. */
        SYSTEM,
        /** strace had to be killed, so the trace may lack the line's end, and nothing can be proven. */
        INCOMPLETE;

        String id() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    @Override
    public String toString() {
        return kind.id() + ": " + detail;
    }
}
