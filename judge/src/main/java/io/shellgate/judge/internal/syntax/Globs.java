package io.shellgate.judge.internal.syntax;

import com.google.re2j.Pattern;

/** The policy's glob patterns as RE2 expressions, for POSIX and Windows paths alike. */
public final class Globs {

    private Globs() {}

    /**
     * One glob as an RE2 expression: {@code **} (and {@code **}{@code /}) crosses segments and
     * newlines, {@code *} and {@code ?} stay within a segment, a backslash makes the next character
     * literal, and everything else is literal.
     *
     * @param inSegment the expression of one character within a segment ({@code [^/]})
     * @param classes whether {@code [...]} is a character class ({@code [!...]} or {@code [^...]}
     *     negated); else a bracket is literal
     */
    public static String regex(String glob, String inSegment, boolean classes) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < glob.length(); i++) {
            char c = glob.charAt(i);
            if (c == '\\' && i + 1 < glob.length()) {
                sb.append(Pattern.quote(String.valueOf(glob.charAt(++i))));
            } else if (c == '*' && i + 1 < glob.length() && glob.charAt(i + 1) == '*') {
                boolean slash = i + 2 < glob.length() && glob.charAt(i + 2) == '/';
                // [\s\S], not ".": a file name may hold a newline
                sb.append(slash ? "(?:[\\s\\S]*/)?" : "[\\s\\S]*");
                i += slash ? 2 : 1;
            } else if (c == '*') {
                sb.append(inSegment).append('*');
            } else if (c == '?') {
                sb.append(inSegment);
            } else if (c == '[' && classes) {
                int close = glob.indexOf(']', i + 1);
                if (close < 0) {
                    sb.append("\\[");
                } else {
                    // [!...] is the shell's spelling of a negated class, RE2's is [^...]
                    boolean negated = glob.charAt(i + 1) == '!';
                    sb.append(negated ? "[^" : "[").append(glob, negated ? i + 2 : i + 1, close).append(']');
                    i = close;
                }
            } else {
                sb.append(Pattern.quote(String.valueOf(c)));
            }
        }
        return sb.toString();
    }
}
