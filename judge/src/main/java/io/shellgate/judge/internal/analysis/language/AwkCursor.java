package io.shellgate.judge.internal.analysis.language;

import io.shellgate.judge.internal.analysis.language.AwkLexer.Kind;
import io.shellgate.judge.internal.analysis.language.AwkLexer.Token;
import java.util.List;
import java.util.Set;

/** The token cursor of {@link AwkParser}, with what only awk's grammar needs. */
abstract class AwkCursor extends TokenCursor<Token> {

    static final Set<String> KEYWORDS = Set.of("BEGIN", "END", "BEGINFILE", "ENDFILE", "function", "func", "if", "else",
            "while", "for", "do", "break", "continue", "next", "nextfile", "exit", "return", "delete", "getline", "print",
            "printf", "in", "switch", "case", "default");
    private static final int MAX_DEPTH = 100;

    AwkCursor(List<Token> tokens) {
        super(tokens, MAX_DEPTH);
    }

    void expect(String op) {
        if (!peek().is(op)) {
            throw error(op);
        }
        next();
    }

    void newlines() {
        while (peek().kind() == Kind.NEWLINE) {
            next();
        }
    }

    void terms() {
        while (peek().kind() == Kind.NEWLINE || peek().is(";")) {
            next();
        }
    }

    static boolean terminator(Token k) {
        return k.kind() == Kind.NEWLINE || k.kind() == Kind.END || k.is(";") || k.is("}");
    }

    static boolean redirection(Token k) {
        return k.is(">") || k.is(">>") || k.is("|") || k.is("|&");
    }
}
