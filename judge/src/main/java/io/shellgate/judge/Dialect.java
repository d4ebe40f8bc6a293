package io.shellgate.judge;

import java.util.Locale;

/** The language a command line is written in. */
public enum Dialect {
    BASH,
    ZSH,
    SH,
    POWERSHELL,
    CMD;

    /** The lower-case name used on the command line, in policy files and in JSON. */
    public String id() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** Whether tree-sitter-bash parses this dialect. */
    public boolean isPosix() {
        return this == BASH || this == ZSH || this == SH;
    }

    /** Parses {@code bash}, {@code zsh}, {@code sh}, {@code powershell} or {@code cmd}; null otherwise. */
    public static Dialect parse(String text) {
        for (Dialect d : values()) {
            if (d.id().equals(text)) {
                return d;
            }
        }
        return null;
    }
}
