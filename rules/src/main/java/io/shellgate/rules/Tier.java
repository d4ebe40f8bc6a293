package io.shellgate.rules;

import java.util.Locale;

/**
 * The three outcomes of judging a command line, ordered by severity.
 *
 * <p>Combining verdicts is taking the maximum: the strictest part of a line decides.
 */
public enum Tier {
    /** Runs without asking. */
    ALLOW,
    /** Needs review: remembered approvals, an LLM reviewer or a person; refused when nobody answers. */
    ASK,
    /** Refused outright. */
    DENY;

    /** The stricter of this tier and {@code other}. */
    public Tier max(Tier other) {
        return other.ordinal() > ordinal() ? other : this;
    }

    /** The lower-case name used in policy files and JSON output. */
    public String id() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** Parses {@code allow}, {@code ask} or {@code deny}; null when the text is none of them. */
    public static Tier parse(String text) {
        for (Tier tier : values()) {
            if (tier.id().equals(text)) {
                return tier;
            }
        }
        return null;
    }
}
