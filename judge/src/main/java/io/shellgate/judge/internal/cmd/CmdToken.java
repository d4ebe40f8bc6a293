package io.shellgate.judge.internal.cmd;

import io.shellgate.judge.Span;

/**
 * One token of a cmd line.
 *
 * @param text a word's value after quotes, carets and %VARIABLE% expansion; an operator's text
 * @param known false when part of a word is a variable whose value is not known here
 * @param quoted whether any part of a word was quoted
 */
record CmdToken(Kind kind, String text, boolean known, boolean quoted, Span span) {

    enum Kind {
        WORD,
        AND,
        AND_IF,
        OR_IF,
        PIPE,
        OPEN,
        CLOSE,
        REDIRECT,
        NEWLINE
    }

    boolean is(Kind k) {
        return kind == k;
    }

    /** Whether this is a word of that text (any case). */
    boolean isWord(String word) {
        return kind == Kind.WORD && known && !quoted && text.equalsIgnoreCase(word);
    }
}
