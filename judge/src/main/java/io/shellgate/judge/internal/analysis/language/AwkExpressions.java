package io.shellgate.judge.internal.analysis.language;

import io.shellgate.judge.internal.analysis.language.AwkLexer.Kind;
import io.shellgate.judge.internal.analysis.language.AwkLexer.Token;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/** The expressions of an awk program, lowest precedence first, and what they read, write and run. */
abstract class AwkExpressions extends AwkCursor {

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

    /** An expression as far as the checks need it: the variable it names when it is one, and its literal text. */
    record Expr(String name, boolean lvalue, String literal) {
        static final Expr VALUE = new Expr(null, false, null);
    }

    final List<String> reads = new ArrayList<>();
    final List<String> writes = new ArrayList<>();
    final List<String> commands = new ArrayList<>();
    /** The first reason the program is not read-only that did not stop the parse (running a command). */
    String runs;

    AwkExpressions(List<Token> tokens) {
        super(tokens);
    }

    void expressionList(boolean noGreater) {
        expr(noGreater);
        while (peek().is(",")) {
            next();
            newlines();
            expr(noGreater);
        }
    }

    Expr expr(boolean noGreater) {
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

    Expr ternary(boolean noGreater) {
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
    static final List<Set<String>> LEVELS = List.of(Set.of("||"), Set.of("&&"), Set.of("in"), Set.of("~", "!~"),
            Set.of("<", "<=", "!=", "==", ">=", ">"));

    Expr binary(int level, boolean noGreater) {
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

    Expr pipeGetline(boolean noGreater) {
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

    Expr concatenation(boolean noGreater) {
        Expr left = additive();
        while (startsOperand(peek())) {
            additive();
            left = Expr.VALUE;
        }
        return left;
    }

    static boolean startsOperand(Token k) {
        return switch (k.kind()) {
            case NUMBER, STRING, REGEX, FUNC_NAME, AT_NAME -> true;
            case NAME -> !KEYWORDS.contains(k.text()) || k.text().equals("getline");
            case OP -> k.text().equals("$") || k.text().equals("(") || k.text().equals("++") || k.text().equals("--");
            case NEWLINE, END -> false;
        };
    }

    Expr additive() {
        Expr left = multiplicative();
        while (peek().is("+") || peek().is("-")) {
            next();
            newlines();
            multiplicative();
            left = Expr.VALUE;
        }
        return left;
    }

    Expr multiplicative() {
        Expr left = unary();
        while (peek().is("*") || peek().is("/") || peek().is("%")) {
            next();
            newlines();
            unary();
            left = Expr.VALUE;
        }
        return left;
    }

    Expr unary() {
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

    Expr postfix() {
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

    Expr primary() {
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

    Expr name(String name) {
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
    void runs(String literal, String why) {
        if (runs == null) {
            runs = why;
        }
        if (literal != null) {
            commands.add(literal);
        }
    }

    void call(String name) {
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

    void getline() {
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

    void reference(String name) {
        if (FORBIDDEN_NAMES.contains(name)) {
            throw new Violation("the program reads " + name);
        }
    }

    void assign(Expr target) {
        if (target.name != null && PROTECTED.contains(target.name)) {
            throw new Violation("the program changes " + target.name + ", which names the files awk reads");
        }
    }
}
