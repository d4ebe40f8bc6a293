package io.shellgate.reviewer.model;

import java.util.Locale;

/** A person's answer to a pending ask. */
public enum Answer {
    /** Run it this once. */
    ONCE,
    /** Run it, and the same command line again in this session without asking. */
    SESSION,
    /** Run it, and remember an approval in the project's policy file. */
    PROJECT,
    /** Do not run it. */
    REFUSE;

    /** The kebab-case id used by {@code shellgate approvals} and the protocol. */
    public String id() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** Whether the command runs. */
    public boolean runs() {
        return this != REFUSE;
    }

    /** Parses an id; null when it is not one. */
    public static Answer parse(String id) {
        for (Answer a : values()) {
            if (a.id().equals(id)) {
                return a;
            }
        }
        return null;
    }
}
