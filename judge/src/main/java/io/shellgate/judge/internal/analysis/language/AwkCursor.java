package io.shellgate.judge.internal.analysis.language;

import io.shellgate.judge.internal.analysis.language.AwkLexer.Kind;
import io.shellgate.judge.internal.analysis.language.AwkLexer.Token;
import java.util.List;
import java.util.Set;

/** The token cursor of {@link AwkParser}: where the parse is, how deep, and the errors it raises. */
abstract class AwkCursor {

    static final Set<String> KEYWORDS = Set.of("BEGIN", "END", "BEGINFILE", "ENDFILE", "function", "func", "if", "else",
            "while", "for", "do", "break", "continue", "next", "nextfile", "exit", "return", "delete", "getline", "print",
            "printf", "in", "switch", "case", "default");
    private static final int MAX_DEPTH = 100;

    /** Raised at the first construct that is not read-only. */
    static final class Violation extends RuntimeException {
        Violation(String message) {
            super(message, null, false, false);
        }
    }

    final List<Token> t;
    int p;
    int depth;

    AwkCursor(List<Token> tokens) {
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

    void enter() {
        if (++depth > MAX_DEPTH) {
            throw new AwkLexer.Error("nested more than " + MAX_DEPTH + " deep");
        }
    }

    AwkLexer.Error error(String wanted) {
        Token k = peek();
        return new AwkLexer.Error("expected " + wanted + " at " + k.at() + ", found "
                + (k.kind() == Kind.END ? "the end" : "'" + k.text() + "'"));
    }
}
