package io.shellgate.launcher.internal.wrap;

/** How {@code shellgate wrap} puts its shell entries in front of the agent's shells. */
public enum WrapLayer {
    /**
     * A private mount namespace (bubblewrap) in which every shell's file is covered by a shell
     * entry, whatever path or name the agent uses; PATH entries on top.
     */
    NAMESPACE("namespace", "every shell file on the system and on PATH is covered, however the agent finds it"
            + " (name, PATH, absolute path, login shell); not caught: shells started outside the agent's process"
            + " tree, programs the agent starts directly without a shell, a shell copied to a new place after the"
            + " start; setuid programs (sudo) do not work inside"),
    /** Only entries in a directory put first on PATH, and {@code $SHELL} pointing at one. */
    PATH("path", "shells found by name on PATH and through $SHELL are caught; not caught: absolute paths (/bin/bash,"
            + " /usr/bin/sh: node's child_process.exec, Codex's login shell), shells started outside the agent's"
            + " process tree, programs the agent starts directly without a shell");

    private final String id;
    private final String reach;

    WrapLayer(String id, String reach) {
        this.id = id;
        this.reach = reach;
    }

    public String id() {
        return id;
    }

    /** What this layer catches and what it cannot. */
    public String reach() {
        return reach;
    }
}
