package io.shellgate.reviewer.model;

/**
 * Text from an ask (a command line, a directory, a reason), made safe to print on a person's
 * terminal: a command an agent wrote may hold escape sequences that would redraw the screen
 * (hide itself, show another command) if printed as they are.
 */
public final class Printable {

    private Printable() {}

    /** {@code text} with every control character but newline and tab shown as {@code ^X} or {@code \\uXXXX}. */
    public static String of(String text) {
        StringBuilder sb = new StringBuilder(text.length());
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '\n' || c == '\t') {
                sb.append(c);
            } else if (c < 0x20 || c == 0x7f) {
                sb.append('^').append((char) (c ^ 0x40));
            } else if (c >= 0x80 && c < 0xa0 || c == '\u2028' || c == '\u2029' || Character.getType(c) == Character.FORMAT) {
                // C1 controls (CSI alone is 0x9b), line separators, and invisible format characters (bidi overrides)
                sb.append(String.format("\\u%04x", (int) c));
            } else {
                sb.append(c);
            }
        }
        return sb.toString();
    }
}
