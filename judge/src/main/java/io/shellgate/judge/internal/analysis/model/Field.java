package io.shellgate.judge.internal.analysis.model;

import io.shellgate.judge.internal.syntax.Script;
import java.util.ArrayList;
import java.util.List;

/**
 * One argument as the shell would pass it, after expansion. Parts the judge cannot compute are
 * marked in the text with private-use characters:
 *
 * <ul>
 *   <li>{@link #HOLE}: unknown text (a substitution's output, an unknown variable);
 *   <li>{@link #NUMBER}: an unknown number ({@code $((...))}, {@code $#});
 *   <li>{@link #STAR}, {@link #QUESTION}, {@link #BRACKET}: unquoted {@code * ? [}, which the
 *       shell expands as file name patterns.
 * </ul>
 *
 * @param producers the scripts whose output flows into this argument ({@code $(curl ...)})
 * @param processSub whether the argument names a process substitution's file
 * @param expanded whether any part came from a variable or a substitution rather than the text
 */
public record Field(String text, List<Script> producers, boolean processSub, boolean expanded) {

    public static final char HOLE = '\uE000';
    public static final char NUMBER = '\uE001';
    public static final char STAR = '\uE002';
    public static final char QUESTION = '\uE003';
    public static final char BRACKET = '\uE004';

    public Field {
        producers = List.copyOf(producers);
    }

    public Field(String text, List<Script> producers, boolean processSub) {
        this(text, producers, processSub, !producers.isEmpty());
    }

    public static Field literal(String text) {
        return new Field(text, List.of(), false, false);
    }

    public static Field hole() {
        return new Field(String.valueOf(HOLE), List.of(), false, true);
    }

    /** The same text marked as coming from an expansion. */
    public Field asExpanded() {
        return expanded ? this : new Field(text, producers, processSub, true);
    }

    public static boolean isMarker(char c) {
        return c >= HOLE && c <= BRACKET;
    }

    /** Whether every character is known and no pattern characters are active. */
    public boolean isLiteral() {
        for (int i = 0; i < text.length(); i++) {
            if (isMarker(text.charAt(i))) {
                return false;
            }
        }
        return true;
    }

    /** Whether some part is unknown text (numbers do not count). */
    public boolean hasHoles() {
        return text.indexOf(HOLE) >= 0;
    }

    public boolean hasUnknown() {
        return text.indexOf(HOLE) >= 0 || text.indexOf(NUMBER) >= 0;
    }

    public boolean hasGlob() {
        return text.indexOf(STAR) >= 0 || text.indexOf(QUESTION) >= 0 || text.indexOf(BRACKET) >= 0;
    }

    /** Whether the argument could begin with {@code -} and so be taken for an option. */
    public boolean mayBeOption() {
        return !text.isEmpty() && (text.charAt(0) == '-' || text.charAt(0) == HOLE);
    }

    /** The text with pattern characters as themselves and unknown parts shown as {@code ?} or {@code N}. */
    public String display() {
        StringBuilder sb = new StringBuilder(text.length());
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            sb.append(c == HOLE ? '…' : c == NUMBER ? '#' : unmark(c));
        }
        return sb.toString();
    }

    /** The text with pattern characters restored; only meaningful when there are no holes. */
    public String plain() {
        StringBuilder sb = new StringBuilder(text.length());
        for (int i = 0; i < text.length(); i++) {
            sb.append(unmark(text.charAt(i)));
        }
        return sb.toString();
    }

    /**
     * The text with file name pattern characters as themselves but unknown parts still marked:
     * how a builtin reads a name such as {@code a[1]} it is given unquoted.
     */
    public String textWithoutPatterns() {
        StringBuilder sb = new StringBuilder(text.length());
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            sb.append(c == HOLE || c == NUMBER ? c : unmark(c));
        }
        return sb.toString();
    }

    public static char unmark(char c) {
        return switch (c) {
            case STAR -> '*';
            case QUESTION -> '?';
            case BRACKET -> '[';
            case NUMBER -> '0';
            default -> c;
        };
    }

    public Field concat(Field other) {
        List<Script> all = new ArrayList<>(producers);
        all.addAll(other.producers);
        return new Field(text + other.text, all, processSub || other.processSub, expanded || other.expanded);
    }
}
