package io.shellgate.judge;

import java.util.List;

/**
 * An argument vector (what {@code execve} gets, with no shell in between) written as one shell line:
 * the text of a {@link JudgeRequest} made from a vector, so that it reads alike in logs and prompts
 * and the raw-text backstop has something to scan. The judge builds the command itself from the
 * vector, never by splitting this text again.
 */
public final class ArgvText {

    private ArgvText() {}

    /**
     * The vector as one shell line: a word that is plainly one word stays as it is, any other is
     * single-quoted. The program is always quoted unless it is a path, so that it can never read
     * as a keyword ({@code if}) or an assignment ({@code A=b}).
     */
    public static String line(List<String> argv) {
        StringBuilder line = new StringBuilder();
        for (int i = 0; i < argv.size(); i++) {
            if (i > 0) {
                line.append(' ');
            }
            appendWord(line, argv.get(i), i == 0);
        }
        return line.toString();
    }

    /** One word of the vector as {@link #line} writes it ({@code program}: the first word); quoted iff it differs. */
    public static String word(String word, boolean program) {
        StringBuilder out = new StringBuilder();
        appendWord(out, word, program);
        return out.toString();
    }

    private static boolean appendWord(StringBuilder line, String word, boolean program) {
        if (isBare(word) && !(program && (word.indexOf('=') >= 0 || word.indexOf('/') < 0))) {
            line.append(word);
            return false;
        }
        line.append('\'');
        for (int i = 0; i < word.length(); i++) {
            char c = word.charAt(i);
            if (c == '\'') {
                line.append("'\\''");
            } else {
                line.append(c);
            }
        }
        line.append('\'');
        return true;
    }

    /** Letters, digits and {@code _ . / : , + @ % = -} only: nothing a shell would expand or split. */
    private static boolean isBare(String word) {
        if (word.isEmpty()) {
            return false;
        }
        for (int i = 0; i < word.length(); i++) {
            char c = word.charAt(i);
            boolean ok = c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
                    || "_./:,+@%=-".indexOf(c) >= 0;
            if (!ok) {
                return false;
            }
        }
        return true;
    }
}
