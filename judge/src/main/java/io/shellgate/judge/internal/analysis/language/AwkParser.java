package io.shellgate.judge.internal.analysis.language;

import io.shellgate.judge.internal.analysis.language.AwkLexer.Kind;
import io.shellgate.judge.internal.analysis.language.AwkLexer.Token;
import java.util.List;

/**
 * Parses an awk program (POSIX awk with gawk's additions) and allows it only when every construct
 * is a read-only one: built-in functions other than {@code system}, user functions, no pipes to or
 * from commands, output redirected only to files named by a literal (the caller judges them as
 * writes: {@code /dev/stderr} is harmless), {@code getline} only from files named by a literal
 * (judged as reads), no {@code ENVIRON}, {@code PROCINFO}, {@code SYMTAB} or {@code FUNCTAB}, no
 * change to {@code ARGV} or {@code ARGC} (which name the files awk reads), no gawk {@code @}
 * directives or indirect calls. Text it cannot parse is not allowed either.
 */
public final class AwkParser extends AwkExpressions {

    /**
     * What the program does: why it is not read-only (null when it is), the literal files it reads
     * and writes, and the literal commands it runs ({@code system("…")}, {@code print | "…"},
     * {@code "…" | getline}), which the caller judges as shell code.
     */
    public record Result(String problem, List<String> reads, List<String> writes, List<String> commands) {}

    private AwkParser(List<Token> tokens) {
        super(tokens);
    }

    public static Result check(String program) {
        AwkParser parser;
        try {
            parser = new AwkParser(AwkLexer.tokens(program));
        } catch (SyntaxError e) {
            return new Result("cannot read the program (" + e.getMessage() + ")", List.of(), List.of(), List.of());
        }
        String problem;
        try {
            parser.program();
            problem = parser.runs;
        } catch (Violation v) {
            problem = v.getMessage();
        } catch (SyntaxError e) {
            problem = "cannot read the program (" + e.getMessage() + ")";
        }
        return new Result(problem, parser.reads, parser.writes, parser.commands);
    }

    // ---- items and statements

    private void program() {
        terms();
        while (peek().kind() != Kind.END) {
            item();
            terms();
        }
    }

    private void item() {
        Token k = peek();
        if (k.kind() == Kind.AT_NAME) {
            throw new Violation("the program uses gawk's @" + k.text() + " (a directive or an indirect function call)");
        }
        if (k.is("function") || k.is("func")) {
            next();
            Token name = next();
            if (name.kind() != Kind.NAME && name.kind() != Kind.FUNC_NAME) {
                throw error("a function name");
            }
            expect("(");
            newlines();
            while (!peek().is(")")) {
                if (next().kind() != Kind.NAME) {
                    throw error("a parameter name");
                }
                if (peek().is(",")) {
                    next();
                    newlines();
                }
            }
            next();
            newlines();
            block();
            return;
        }
        if (k.is("{")) {
            block();
            return;
        }
        if (k.is("BEGIN") || k.is("END") || k.is("BEGINFILE") || k.is("ENDFILE")) {
            next();
        } else {
            expr(false);
            if (peek().is(",")) {
                next();
                newlines();
                expr(false);
            }
        }
        if (peek().is("{")) {
            block();
        }
    }

    private void block() {
        expect("{");
        statements();
        expect("}");
    }

    private void statements() {
        terms();
        while (!peek().is("}") && peek().kind() != Kind.END) {
            statement();
            terms();
        }
    }

    private void statement() {
        enter();
        Token k = peek();
        if (k.kind() == Kind.NAME && KEYWORDS.contains(k.text()) && !k.is("getline")) {
            keywordStatement(k.text());
        } else if (k.is("{")) {
            block();
        } else if (k.is(";")) {
            next();
        } else {
            simpleStatement();
        }
        depth--;
    }

    private void keywordStatement(String word) {
        switch (word) {
            case "if" -> {
                next();
                condition();
                body();
                int mark = p;
                terms();
                if (peek().is("else")) {
                    next();
                    body();
                } else {
                    p = mark;
                }
            }
            case "while" -> {
                next();
                condition();
                if (peek().is(";")) {
                    next();
                } else {
                    body();
                }
            }
            case "do" -> {
                next();
                body();
                terms();
                expect("while");
                condition();
            }
            case "for" -> forStatement();
            case "switch" -> switchStatement();
            case "break", "continue", "next", "nextfile" -> next();
            case "exit", "return" -> {
                next();
                if (!terminator(peek())) {
                    expr(false);
                }
            }
            case "delete" -> {
                next();
                Expr target = primary();
                assign(target);
            }
            case "print", "printf" -> print();
            default -> throw error("a statement");
        }
    }

    private void condition() {
        expect("(");
        newlines();
        expr(false);
        newlines();
        expect(")");
    }

    private void body() {
        newlines();
        if (peek().is(";")) {
            next();
            return;
        }
        statement();
    }

    private void forStatement() {
        next();
        expect("(");
        if (peek().kind() == Kind.NAME && at(1).is("in") && at(2).kind() == Kind.NAME && at(3).is(")")) {
            // for (key in array): the key is assigned
            assign(new Expr(next().text(), true, null));
            next();
            reference(next().text());
            next();
        } else {
            if (!peek().is(";")) {
                simpleStatement();
            }
            expect(";");
            newlines();
            if (!peek().is(";")) {
                expr(false);
            }
            expect(";");
            newlines();
            if (!peek().is(")")) {
                simpleStatement();
            }
            expect(")");
        }
        body();
    }

    private void switchStatement() {
        next();
        condition();
        newlines();
        expect("{");
        terms();
        while (peek().is("case") || peek().is("default")) {
            if (next().is("case")) {
                if (peek().is("-") || peek().is("+")) {
                    next();
                }
                Token v = next();
                if (v.kind() != Kind.NUMBER && v.kind() != Kind.STRING && v.kind() != Kind.REGEX) {
                    throw error("a case value");
                }
            }
            expect(":");
            terms();
            while (!peek().is("case") && !peek().is("default") && !peek().is("}") && peek().kind() != Kind.END) {
                statement();
                terms();
            }
        }
        expect("}");
    }

    private void simpleStatement() {
        if (peek().is("print") || peek().is("printf")) {
            print();
        } else {
            expr(false);
        }
    }

    private void print() {
        next();
        if (!terminator(peek()) && !redirection(peek())) {
            expressionList(true);
        }
        if (redirection(peek())) {
            String op = next().text();
            Expr target = concatenation(true);
            if (op.equals("|") || op.equals("|&")) {
                runs(target.literal(), "the program pipes its output to a command (print " + op + ")");
                return;
            }
            if (target.literal() == null) {
                throw new Violation("print writes to a file whose name is computed");
            }
            writes.add(target.literal());
        }
    }
}
