package io.shellgate.judge.internal.analysis.language;

import io.shellgate.judge.internal.analysis.language.JqLexer.Kind;
import io.shellgate.judge.internal.analysis.language.JqLexer.Token;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Parses a jq program with jq's grammar (pipes, bindings and destructuring, reduce, foreach, if,
 * try, label, function definitions, object construction with its shorthand keys, string
 * interpolation) and allows it only when every function it calls is one of jq's own filters on a
 * read-only list or one the program defines, and it neither reads the environment
 * ({@code env}, {@code $ENV}) nor loads modules ({@code import}, {@code include},
 * {@code modulemeta}). A name used as an object key ({@code {env: 1}}) or a field ({@code .env})
 * is data, not a call.
 */
public final class JqParser extends JqTerms {

    private JqParser(List<Token> tokens) {
        super(tokens);
    }

    /** Why the program is not a read-only filter, or null when it is. */
    public static String problem(String program) {
        try {
            JqParser parser = new JqParser(JqLexer.tokens(program));
            if (parser.peek().is("module") || parser.peek().is("import") || parser.peek().is("include")) {
                return "the program loads modules (" + parser.peek().text() + ")";
            }
            parser.pipe();
            if (parser.peek().kind() != Kind.END) {
                throw parser.error("the end of the program");
            }
            return null;
        } catch (Violation v) {
            return v.getMessage();
        } catch (SyntaxError e) {
            return "cannot read the program (" + e.getMessage() + ")";
        }
    }
    @Override
    void pipe() {
        enter();
        if (peek().is("def")) {
            int mark = scope.size();
            definition();
            pipe();
            scope.subList(mark, scope.size()).clear();
        } else if (peek().is("label")) {
            next();
            variable();
            expect("|");
            pipe();
        } else {
            comma();
            if (peek().is("|")) {
                next();
                pipe();
            }
        }
        depth--;
    }

    private void definition() {
        next();
        Token name = next();
        if (name.kind() != Kind.IDENT) {
            throw error("a function name");
        }
        List<String> params = new ArrayList<>();
        if (peek().is("(")) {
            next();
            do {
                Token param = next();
                if (param.kind() != Kind.IDENT && param.kind() != Kind.VARIABLE) {
                    throw error("a parameter");
                }
                params.add(param.text() + "/0");
            } while (accept(";"));
            expect(")");
        }
        expect(":");
        scope.add(name.text() + "/" + params.size());
        int mark = scope.size();
        scope.addAll(params);
        pipe();
        scope.subList(mark, scope.size()).clear();
        expect(";");
    }

    private void comma() {
        alternative();
        while (accept(",")) {
            alternative();
        }
    }

    private void alternative() {
        binary(0);
        if (accept("//")) {
            alternative();
        }
    }

    private static final List<Set<String>> LEVELS = List.of(Set.of("=", "|=", "+=", "-=", "*=", "/=", "%=", "//="),
            Set.of("or"), Set.of("and"), Set.of("==", "!=", "<", "<=", ">", ">="), Set.of("+", "-"), Set.of("*", "/", "%"));

    private void binary(int level) {
        if (level == LEVELS.size()) {
            unary();
            return;
        }
        binary(level + 1);
        while (LEVELS.get(level).contains(peek().text()) && (peek().kind() == Kind.OP || peek().kind() == Kind.IDENT)) {
            next();
            if (level == 0) {
                alternative();
            } else {
                binary(level + 1);
            }
        }
    }

    private void unary() {
        if (accept("-")) {
            enter();
            unary();
            depth--;
            return;
        }
        postfix(true);
    }

    /** A term with its suffixes; with {@code binding}, also "TERM as PATTERNS | BODY". */
    @Override
    void postfix(boolean binding) {
        term();
        while (true) {
            if (peek().kind() == Kind.FIELD) {
                next();
            } else if (peek().is(".") && at(1).kind() == Kind.STRING_START) {
                next();
                string();
            } else if (peek().is(".") && at(1).is("[")) {
                next();
            } else if (peek().is("[")) {
                next();
                if (!accept("]")) {
                    if (!peek().is(":")) {
                        pipe();
                    }
                    if (accept(":") && !peek().is("]")) {
                        pipe();
                    }
                    expect("]");
                }
            } else if (peek().is("?")) {
                next();
            } else {
                break;
            }
        }
        if (binding && peek().is("as")) {
            next();
            patterns();
            expect("|");
            pipe();
        }
    }
}
