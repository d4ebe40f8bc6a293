package io.shellgate.judge.internal.analysis.language;

import io.shellgate.judge.internal.analysis.language.JqLexer.Kind;
import io.shellgate.judge.internal.analysis.language.JqLexer.Token;
import java.util.List;

/** The token cursor of {@link JqParser}, with what only jq's grammar needs. */
abstract class JqCursor extends TokenCursor<Token> {

    private static final int MAX_DEPTH = 200;

    JqCursor(List<Token> tokens) {
        super(tokens, MAX_DEPTH);
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
}
