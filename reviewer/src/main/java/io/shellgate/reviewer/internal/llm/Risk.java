package io.shellgate.reviewer.internal.llm;

import java.util.Locale;

/** How much harm a command line could do, as the LLM reviewer rates it; ordered, least first. */
public enum Risk {
    LOW,
    MEDIUM,
    HIGH;

    /** The lower-case id used in the policy file, the environment and the LLM's reply. */
    public String id() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** Parses {@code low}, {@code medium} or {@code high}, ignoring case; null otherwise. */
    public static Risk parse(String text) {
        for (Risk r : values()) {
            if (r.id().equalsIgnoreCase(text)) {
                return r;
            }
        }
        return null;
    }
}
