package io.shellgate.judge.internal.syntax;

import io.shellgate.judge.Span;
import java.util.List;

/** One shell word as written, before expansion. */
public record Word(List<Part> parts, Span span) {

    public Word {
        parts = List.copyOf(parts);
    }

    /** The word's text when it is only literal parts, else null. */
    public String literal() {
        StringBuilder sb = new StringBuilder();
        for (Part p : parts) {
            if (!(p instanceof Part.Literal l)) {
                return null;
            }
            sb.append(l.text());
        }
        return sb.toString();
    }
}
