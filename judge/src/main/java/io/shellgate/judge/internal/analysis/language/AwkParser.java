package io.shellgate.judge.internal.analysis.language;

import io.shellgate.judge.internal.analysis.language.AwkLexer.Kind;
import io.shellgate.judge.internal.analysis.language.AwkLexer.Token;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Parses an awk program (POSIX awk with gawk's additions) and allows it only when every construct
 * is a read-only one: built-in functions other than {@code system}, user functions, no pipes to or
 * from commands, output redirected only to files named by a literal (the caller judges them as
 * writes: {@code /dev/stderr} is harmless), {@code getline} only from files named by a literal
 * (judged as reads), no {@code ENVIRON}, {@code PROCINFO}, {@code SYMTAB} or {@code FUNCTAB}, no
 * change to {@code ARGV} or {@code ARGC} (which name the files awk reads), no gawk {@code @}
 * directives or indirect calls. Text it cannot parse is not allowed either.
 */
public final class AwkParser {

    static final Set<String> KEYWORDS = Set.of("BEGIN", "END", "BEGINFILE", "ENDFILE", "function", "func", "if", "else",
            "while", "for", "do", "break", "continue", "next", "nextfile", "exit", "return", "delete", "getline", "print",
            "printf", "in", "switch", "case", "default");
    private static final Set<String> BUILTINS = Set.of("length", "substr", "index", "split", "sub", "gsub", "match",
            "sprintf", "sin", "cos", "atan2", "exp", "log", "sqrt", "int", "rand", "srand", "tolower", "toupper", "close",
            "fflush", "gensub", "strftime", "systime", "mktime", "asort", "asorti", "and", "or", "xor", "lshift", "rshift",
            "compl", "strtonum", "typeof", "isarray", "patsplit", "mkbool", "system");
    /** Per built-in, the argument positions (from 0) that it assigns to: an array it fills or a target it edits. */
    private static final java.util.Map<String, Set<Integer>> ASSIGNS = java.util.Map.of("split", Set.of(1, 3), "sub",
            Set.of(2), "gsub", Set.of(2), "match", Set.of(2), "asort", Set.of(0, 1), "asorti", Set.of(0, 1), "patsplit",
            Set.of(1, 3));
    private static final Set<String> FORBIDDEN_NAMES = Set.of("ENVIRON", "PROCINFO", "SYMTAB", "FUNCTAB");
    private static final Set<String> PROTECTED = Set.of("ARGV", "ARGC");
    private static final int MAX_DEPTH = 100;

    /**
     * What the program does: why it is not read-only (null when it is), the literal files it reads
     * and writes, and the literal commands it runs ({@code system("…")}, {@code print | "…"},
     * {@code "…" | getline}), which the caller judges as shell code.
     */
    public record Result(String problem, List<String> reads, List<String> writes, List<String> commands) {}

    /** Raised at the first construct that is not read-only. */
    private static final class Violation extends RuntimeException {
        Violation(String message) {
            super(message, null, false, false);
        }
    }

    /** An expression as far as the checks need it: the variable it names when it is one, and its literal text. */
    private record Expr(String name, boolean lvalue, String literal) {
        static final Expr VALUE = new Expr(null, false, null);
    }

    private final List<Token> t;
    private int p;
    private int depth;
    private final List<String> reads = new ArrayList<>();
    private final List<String> writes = new ArrayList<>();
    private final List<String> commands = new ArrayList<>();
    /** The first reason the program is not read-only that did not stop the parse (running a command). */
    private String runs;

    private AwkParser(List<Token> tokens) {
        this.t = tokens;
    }

    public static Result check(String program) {
        AwkParser parser;
        try {
            parser = new AwkParser(AwkLexer.tokens(program));
        } catch (AwkLexer.Error e) {
            return new Result("cannot read the program (" + e.getMessage() + ")", List.of(), List.of(), List.of());
        }
        String problem;
        try {
            parser.program();
            problem = parser.runs;
        } catch (Violation v) {
            problem = v.getMessage();
        } catch (AwkLexer.Error e) {
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
                runs(target.literal, "the program pipes its output to a command (print " + op + ")");
                return;
            }
            if (target.literal == null) {
                throw new Violation("print writes to a file whose name is computed");
            }
            writes.add(target.literal);
        }
    }

    // ---- expressions, lowest precedence first

    private void expressionList(boolean noGreater) {
        expr(noGreater);
        while (peek().is(",")) {
            next();
            newlines();
            expr(noGreater);
        }
    }

    private Expr expr(boolean noGreater) {
        enter();
        Expr left = ternary(noGreater);
        Token k = peek();
        if (k.kind() == Kind.OP && (k.text().equals("=") || k.text().length() >= 2 && k.text().endsWith("=")
                && "+-*/%^".indexOf(k.text().charAt(0)) >= 0)) {
            if (!left.lvalue) {
                throw error("a variable before " + k.text());
            }
            assign(left);
            next();
            newlines();
            expr(noGreater);
            left = Expr.VALUE;
        }
        depth--;
        return left;
    }

    private Expr ternary(boolean noGreater) {
        Expr c = binary(0, noGreater);
        if (peek().is("?")) {
            next();
            newlines();
            expr(noGreater);
            newlines();
            expect(":");
            newlines();
            expr(noGreater);
            return Expr.VALUE;
        }
        return c;
    }

    /** Binary operators by level: ||, &&, in, ~ and !~, comparisons. */
    private static final List<Set<String>> LEVELS = List.of(Set.of("||"), Set.of("&&"), Set.of("in"), Set.of("~", "!~"),
            Set.of("<", "<=", "!=", "==", ">=", ">"));

    private Expr binary(int level, boolean noGreater) {
        if (level == LEVELS.size()) {
            return pipeGetline(noGreater);
        }
        Expr left = binary(level + 1, noGreater);
        while ((peek().kind() == Kind.OP || peek().kind() == Kind.NAME && peek().is("in"))
                && LEVELS.get(level).contains(peek().text()) && !(noGreater && peek().is(">"))) {
            String op = next().text();
            if (op.equals("in")) {
                Token array = next();
                if (array.kind() != Kind.NAME) {
                    throw error("an array name after in");
                }
                reference(array.text());
            } else {
                newlines();
                binary(level + 1, noGreater);
            }
            left = Expr.VALUE;
        }
        return left;
    }

    private Expr pipeGetline(boolean noGreater) {
        Expr left = concatenation(noGreater);
        while ((peek().is("|") || peek().is("|&")) && at(1).is("getline")) {
            runs(left.literal, "the program runs a command and reads its output (" + peek().text() + " getline)");
            next();
            next();
            getline();
            left = Expr.VALUE;
        }
        return left;
    }

    private Expr concatenation(boolean noGreater) {
        Expr left = additive();
        while (startsOperand(peek())) {
            additive();
            left = Expr.VALUE;
        }
        return left;
    }

    private static boolean startsOperand(Token k) {
        return switch (k.kind()) {
            case NUMBER, STRING, REGEX, FUNC_NAME, AT_NAME -> true;
            case NAME -> !KEYWORDS.contains(k.text()) || k.text().equals("getline");
            case OP -> k.text().equals("$") || k.text().equals("(") || k.text().equals("++") || k.text().equals("--");
            case NEWLINE, END -> false;
        };
    }

    private Expr additive() {
        Expr left = multiplicative();
        while (peek().is("+") || peek().is("-")) {
            next();
            newlines();
            multiplicative();
            left = Expr.VALUE;
        }
        return left;
    }

    private Expr multiplicative() {
        Expr left = unary();
        while (peek().is("*") || peek().is("/") || peek().is("%")) {
            next();
            newlines();
            unary();
            left = Expr.VALUE;
        }
        return left;
    }

    private Expr unary() {
        if (peek().is("!") || peek().is("-") || peek().is("+")) {
            next();
            enter();
            unary();
            depth--;
            return Expr.VALUE;
        }
        Expr base = postfix();
        if (peek().is("^") || peek().is("**")) {
            next();
            newlines();
            enter();
            unary();
            depth--;
            return Expr.VALUE;
        }
        return base;
    }

    private Expr postfix() {
        if (peek().is("++") || peek().is("--")) {
            next();
            enter();
            Expr target = postfix();
            depth--;
            if (!target.lvalue) {
                throw error("a variable after ++ or --");
            }
            assign(target);
            return Expr.VALUE;
        }
        Expr e = primary();
        if (e.lvalue && (peek().is("++") || peek().is("--"))) {
            next();
            assign(e);
            return Expr.VALUE;
        }
        return e;
    }

    private Expr primary() {
        enter();
        try {
            Token k = next();
            switch (k.kind()) {
                case NUMBER, REGEX -> {
                    return Expr.VALUE;
                }
                case STRING -> {
                    return new Expr(null, false, k.text().indexOf('\\') >= 0 ? null : k.text());
                }
                case AT_NAME -> throw new Violation("the program uses gawk's @" + k.text()
                        + " (a directive or an indirect function call)");
                case FUNC_NAME -> {
                    call(k.text());
                    return Expr.VALUE;
                }
                case NAME -> {
                    return name(k.text());
                }
                case OP -> {
                    switch (k.text()) {
                        case "(" -> {
                            newlines();
                            expressionList(false);
                            newlines();
                            expect(")");
                            return Expr.VALUE;
                        }
                        case "$" -> {
                            if (peek().is("++") || peek().is("--") || peek().is("-") || peek().is("+") || peek().is("!")) {
                                unary();
                            } else {
                                primary();
                            }
                            return new Expr(null, true, null);
                        }
                        default -> throw error("an expression");
                    }
                }
                default -> throw error("an expression");
            }
        } finally {
            depth--;
        }
    }

    private Expr name(String name) {
        if (name.equals("getline")) {
            getline();
            return Expr.VALUE;
        }
        if (KEYWORDS.contains(name)) {
            throw error("an expression, not the keyword " + name);
        }
        if (BUILTINS.contains(name)) {
            if (peek().is("(")) {
                call(name);
            } else if (!name.equals("length")) {
                throw error("(" + " after " + name);
            }
            return Expr.VALUE;
        }
        reference(name);
        if (peek().is("[")) {
            next();
            expressionList(false);
            expect("]");
        }
        return new Expr(name, true, null);
    }

    /** Notes a command the program runs: the program is not read-only, and a literal command is judged. */
    private void runs(String literal, String why) {
        if (runs == null) {
            runs = why;
        }
        if (literal != null) {
            commands.add(literal);
        }
    }

    private void call(String name) {
        if (FORBIDDEN_NAMES.contains(name) || PROTECTED.contains(name)) {
            throw new Violation("the program reads " + name);
        }
        expect("(");
        newlines();
        int index = 0;
        Set<Integer> assigned = ASSIGNS.getOrDefault(name, Set.of());
        boolean user = !BUILTINS.contains(name);
        while (!peek().is(")")) {
            Expr arg = expr(false);
            if (name.equals("system") && index == 0) {
                runs(arg.literal, "the program runs commands (system)");
            }
            // a user function can change an array passed to it; built-ins fill or edit some arguments
            if (assigned.contains(index) || user && arg.name != null) {
                assign(arg);
            }
            index++;
            newlines();
            if (peek().is(",")) {
                next();
                newlines();
            } else if (!peek().is(")")) {
                throw error(", or )");
            }
        }
        next();
    }

    private void getline() {
        if (peek().kind() == Kind.NAME && !KEYWORDS.contains(peek().text()) && !BUILTINS.contains(peek().text())
                || peek().is("$")) {
            assign(peek().is("$") ? primary() : name(next().text()));
        }
        if (peek().is("<")) {
            next();
            Expr file = primary();
            if (file.literal == null) {
                throw new Violation("getline reads a file whose name is computed");
            }
            if (file.literal.startsWith("/inet")) {
                throw new Violation("getline opens a network connection (" + file.literal + ")");
            }
            reads.add(file.literal);
        }
    }

    private void reference(String name) {
        if (FORBIDDEN_NAMES.contains(name)) {
            throw new Violation("the program reads " + name);
        }
    }

    private void assign(Expr target) {
        if (target.name != null && PROTECTED.contains(target.name)) {
            throw new Violation("the program changes " + target.name + ", which names the files awk reads");
        }
    }

    // ---- tokens

    private Token peek() {
        return t.get(p);
    }

    private Token at(int ahead) {
        return t.get(Math.min(p + ahead, t.size() - 1));
    }

    private Token next() {
        Token k = t.get(p);
        if (k.kind() != Kind.END) {
            p++;
        }
        return k;
    }

    private void expect(String op) {
        if (!peek().is(op)) {
            throw error(op);
        }
        next();
    }

    private void newlines() {
        while (peek().kind() == Kind.NEWLINE) {
            next();
        }
    }

    private void terms() {
        while (peek().kind() == Kind.NEWLINE || peek().is(";")) {
            next();
        }
    }

    private static boolean terminator(Token k) {
        return k.kind() == Kind.NEWLINE || k.kind() == Kind.END || k.is(";") || k.is("}");
    }

    private static boolean redirection(Token k) {
        return k.is(">") || k.is(">>") || k.is("|") || k.is("|&");
    }

    private void enter() {
        if (++depth > MAX_DEPTH) {
            throw new AwkLexer.Error("nested more than " + MAX_DEPTH + " deep");
        }
    }

    private AwkLexer.Error error(String wanted) {
        Token k = peek();
        return new AwkLexer.Error("expected " + wanted + " at " + k.at() + ", found "
                + (k.kind() == Kind.END ? "the end" : "'" + k.text() + "'"));
    }
}
