package io.shellgate.judge.internal.syntax;

import io.shellgate.judge.Span;
import java.util.ArrayList;
import java.util.List;

/**
 * A program started with an argument vector and no shell in between (what {@code execve} gets):
 * one simple command whose words are exactly those arguments. Its text is the same words quoted
 * for a shell, so that it reads alike in logs and prompts and the raw-text backstop has something
 * to scan; the command itself is built from the vector, never split again from the text.
 */
public final class ArgvScript {

    private ArgvScript() {}

    /**
     * The vector as one shell line: a word that is plainly one word stays as it is, any other is
     * single-quoted. The program is always quoted unless it is a path, so that it can never read
     * as a keyword ({@code if}) or an assignment ({@code A=b}).
     */
    public static String text(List<String> argv) {
        StringBuilder line = new StringBuilder();
        for (int i = 0; i < argv.size(); i++) {
            if (i > 0) {
                line.append(' ');
            }
            appendWord(line, argv.get(i), i == 0);
        }
        return line.toString();
    }

    /** The simple command of the vector, with spans into {@link #text}. */
    public static Script script(List<String> argv) {
        List<Word> words = new ArrayList<>(argv.size());
        StringBuilder line = new StringBuilder();
        for (int i = 0; i < argv.size(); i++) {
            if (i > 0) {
                line.append(' ');
            }
            int start = line.length();
            boolean quoted = appendWord(line, argv.get(i), i == 0);
            Span span = new Span(start, line.length());
            words.add(new Word(List.of(new Part.Literal(argv.get(i), quoted, span)), span));
        }
        Span all = new Span(0, line.length());
        return new Script(new Command.Simple(List.of(), words, List.of(), all), List.of(), List.of());
    }

    /** Appends the word, quoted when it needs to be; whether it was. */
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
