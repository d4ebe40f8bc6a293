package io.shellgate.reviewer.internal.llm;

import java.util.Locale;

/** What the LLM reviewer says about an ask. */
public enum Outcome {
    /** Run it (counts only where the configuration lets the LLM approve at that risk). */
    APPROVE,
    /** Do not run it. */
    REFUSE,
    /** Leave it to a person; also the answer whenever the LLM could not be asked or understood. */
    ESCALATE;

    /** The lower-case id used in the LLM's reply. */
    public String id() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** Parses {@code approve}, {@code refuse} or {@code escalate}, ignoring case; null otherwise. */
    public static Outcome parse(String text) {
        for (Outcome o : values()) {
            if (o.id().equalsIgnoreCase(text)) {
                return o;
            }
        }
        return null;
    }
}
