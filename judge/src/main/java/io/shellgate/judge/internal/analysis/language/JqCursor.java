package io.shellgate.judge.internal.analysis.language;

import io.shellgate.judge.internal.analysis.language.JqLexer.Kind;
import io.shellgate.judge.internal.analysis.language.JqLexer.Token;
import java.util.List;

/** The token cursor of {@link JqParser}: where the parse is, how deep, and the errors it raises. */
abstract class JqCursor {

    private static final int MAX_DEPTH = 200;

    /** Raised at the first construct that is not a read-only filter. */
    static final class Violation extends RuntimeException {
        Violation(String message) {
            super(message, null, false, false);
        }
    }

    final List<Token> t;
    int p;
    int depth;

    JqCursor(List<Token> tokens) {
        this.t = tokens;
    }

    Token peek() {
        return t.get(p);
    }

    Token at(int ahead) {
        return t.get(Math.min(p + ahead, t.size() - 1));
    }

    Token next() {
        Token k = t.get(p);
        if (k.kind() != Kind.END) {
            p++;
        }
        return k;
    }

    boolean accept(String op) {
        if (peek().is(op) || peek().kind() == Kind.STRING_START && op.equals("\"")) {
            next();
            return true;
        }
        return false;
    }

    void expect(String op) {
        if (!accept(op)) {
            throw error(op);
        }
    }

    void enter() {
        if (++depth > MAX_DEPTH) {
            throw new AwkLexer.Error("nested more than " + MAX_DEPTH + " deep");
        }
    }

    AwkLexer.Error error(String wanted) {
        return error(wanted, peek());
    }

    AwkLexer.Error error(String wanted, Token k) {
        return new AwkLexer.Error("expected " + wanted + " at " + k.at() + ", found "
                + (k.kind() == Kind.END ? "the end" : "'" + k.text() + "'"));
    }
}
