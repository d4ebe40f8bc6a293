package io.shellgate.judge.internal.analysis.language;

import java.util.List;

/**
 * The token cursor the parsers of the small languages share (awk, jq): where the parse is, how deep it is nested,
 * and the errors it raises. The list of tokens always ends with an end token, which {@link #next} never passes.
 *
 * @param <T> the language's token
 */
abstract class TokenCursor<T extends TokenCursor.Lexeme> {

    /** What the cursor needs of a token. */
    interface Lexeme {
        /** Whether this is the end of the text. */
        boolean atEnd();

        /** The token's text, for messages. */
        String text();

        /** Where it starts in the text. */
        int at();
    }

    /** Raised at the first construct that is not read-only. */
    static final class Violation extends RuntimeException {
        Violation(String message) {
            super(message, null, false, false);
        }
    }

    final List<T> t;
    int p;
    int depth;
    private final int maxDepth;

    TokenCursor(List<T> tokens, int maxDepth) {
        this.t = tokens;
        this.maxDepth = maxDepth;
    }

    T peek() {
        return t.get(p);
    }

    T at(int ahead) {
        return t.get(Math.min(p + ahead, t.size() - 1));
    }

    T next() {
        T k = t.get(p);
        if (!k.atEnd()) {
            p++;
        }
        return k;
    }

    /** One level deeper: a budget, so that a hostile program cannot exhaust the stack. */
    void enter() {
        if (++depth > maxDepth) {
            throw new SyntaxError("nested more than " + maxDepth + " deep");
        }
    }

    SyntaxError error(String wanted) {
        return error(wanted, peek());
    }

    SyntaxError error(String wanted, T k) {
        return new SyntaxError("expected " + wanted + " at " + k.at() + ", found " + (k.atEnd() ? "the end" : "'" + k.text() + "'"));
    }
}
