package io.shellgate.judge.internal.envelope;

/**
 * The few quoted word forms the agents write around their parts, and their exact values.
 *
 * <p>Only forms whose value is fixed text are accepted: single-quoted pieces, and a {@code '}
 * written as {@code '\''} or {@code '"'"'} between them; or a bare word of characters no shell
 * treats specially. Anything else (double quotes, expansions, escapes of other characters) is not
 * one of these words, so the envelope around it is not recognised.
 */
final class ShellWords {

    /** RE2 for one single-quoted word: pieces {@code '…'}, {@code "'"} and {@code \'}, at least one. */
    static final String QUOTED = "(?:'[^']*'|\"'\"|\\\\')+";

    /** RE2 for a bare word that needs no quotes (what the agents leave unquoted). */
    static final String BARE = "[A-Za-z0-9_./:=@+,-]+";

    /** RE2 for a word in either form. */
    static final String WORD = "(?:" + QUOTED + "|" + BARE + ")";

    private ShellWords() {}

    /**
     * The value of {@code word}, which is a {@link #QUOTED} or {@link #BARE} word; null when it is
     * neither (the caller then does not recognise the envelope).
     */
    static String value(String word) {
        if (word.isEmpty()) {
            return null;
        }
        char first = word.charAt(0);
        if (first != '\'' && first != '"' && first != '\\') {
            return isBare(word) ? word : null;
        }
        StringBuilder out = new StringBuilder(word.length());
        int i = 0;
        while (i < word.length()) {
            if (word.startsWith("\"'\"", i) || word.startsWith("\\'", i)) {
                out.append('\'');
                i += word.charAt(i) == '"' ? 3 : 2;
            } else if (word.charAt(i) == '\'') {
                int close = word.indexOf('\'', i + 1);
                if (close < 0) {
                    return null;
                }
                out.append(word, i + 1, close);
                i = close + 1;
            } else {
                return null;
            }
        }
        return out.toString();
    }

    private static boolean isBare(String word) {
        for (int i = 0; i < word.length(); i++) {
            char c = word.charAt(i);
            boolean ok = c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || "_./:=@+,-".indexOf(c) >= 0;
            if (!ok) {
                return false;
            }
        }
        return true;
    }
}
