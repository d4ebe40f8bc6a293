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
public final class JqParser {

    private static final Set<String> KEYWORDS = Set.of("def", "if", "then", "elif", "else", "end", "as", "reduce", "foreach",
            "try", "catch", "label", "import", "include", "and", "or", "__loc__", "module");
    /** jq's builtin filters that only compute, read further inputs or print to standard error. */
    private static final Set<String> BUILTINS = Set.copyOf(List.of("true", "false", "null", "not", "length", "utf8bytelength", "keys",
            "keys_unsorted", "values", "has", "in", "inside", "contains", "map", "map_values", "path", "paths", "leaf_paths",
            "del", "delpaths", "getpath", "setpath", "pick", "to_entries", "from_entries", "with_entries", "select", "empty",
            "error", "recurse", "recurse_down", "transpose", "first", "last", "nth", "until", "while", "repeat", "range",
            "floor", "ceil", "round", "sqrt", "pow", "log", "log2", "log10", "log1p", "exp", "exp2", "exp10", "expm1", "fabs",
            "abs", "trunc", "rint", "nearbyint", "significand", "logb", "gamma", "lgamma", "tgamma", "lgamma_r", "frexp", "modf",
            "ldexp", "scalb", "scalbln", "cbrt", "pow10", "sin", "cos", "tan", "asin", "acos", "atan", "sinh", "cosh", "tanh",
            "asinh", "acosh", "atanh", "atan2", "fmin", "fmax", "fma", "fmod", "hypot", "copysign", "drem", "nextafter",
            "nexttoward", "j0", "j1", "y0", "y1", "jn", "yn", "infinite", "nan", "isinfinite", "isnan", "isnormal", "isvalid",
            "sort", "sort_by", "group_by", "min", "max", "min_by", "max_by", "unique", "unique_by", "reverse", "add", "any",
            "all", "flatten", "indices", "index", "rindex", "join", "combinations", "walk", "tostream", "fromstream",
            "truncate_stream", "limit", "skip", "isempty", "arrays", "objects", "iterables", "booleans", "numbers", "normals",
            "finites", "strings", "nulls", "scalars", "type", "tojson", "fromjson", "tostring", "tonumber", "toarray",
            "ascii_downcase", "ascii_upcase", "ascii", "implode", "explode", "ltrimstr", "rtrimstr", "trimstr", "trim", "ltrim",
            "rtrim", "startswith", "endswith", "test", "match", "capture", "scan", "split", "splits", "sub", "gsub", "splits",
            "now", "localtime", "gmtime", "mktime", "strftime", "strflocaltime", "strptime", "todate", "fromdate", "date",
            "dateadd", "datesub", "todateiso8601", "fromdateiso8601", "dateadd", "input", "inputs", "debug", "stderr",
            "input_filename", "input_line_number", "halt", "halt_error", "builtins", "have_literal_numbers", "have_decnum",
            "IN", "INDEX", "ANY", "ALL", "getpath", "tojson", "splits", "get_jq_origin", "get_prog_origin", "error", "abs",
            "toarray", "objects", "ltrimstr", "getpath"));
    private static final Set<String> ENVIRONMENT = Set.of("env", "ENV");
    private static final int MAX_DEPTH = 200;

    private static final class Violation extends RuntimeException {
        Violation(String message) {
            super(message, null, false, false);
        }
    }

    private final List<Token> t;
    private int p;
    private int depth;
    /** Functions in scope as name/arity: the program's own definitions and their filter parameters. */
    private final List<String> scope = new ArrayList<>();

    private JqParser(List<Token> tokens) {
        this.t = tokens;
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
        } catch (AwkLexer.Error e) {
            return "cannot read the program (" + e.getMessage() + ")";
        }
    }

    private void pipe() {
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
    private void postfix(boolean binding) {
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

    private void term() {
        enter();
        Token k = next();
        switch (k.kind()) {
            case NUMBER, FIELD -> {
                // data
            }
            case STRING_START -> stringRest();
            case FORMAT -> {
                if (peek().kind() == Kind.STRING_START) {
                    next();
                    stringRest();
                }
            }
            case VARIABLE -> variableNamed(k.text());
            case IDENT -> identifier(k);
            case OP -> operatorTerm(k);
            default -> throw error("a term", k);
        }
        depth--;
    }

    private void operatorTerm(Token k) {
        switch (k.text()) {
            case "." -> {
                if (peek().kind() == Kind.STRING_START) {
                    string();
                }
            }
            case ".." -> {
                // recurse
            }
            case "(" -> {
                pipe();
                expect(")");
            }
            case "[" -> {
                if (!accept("]")) {
                    pipe();
                    expect("]");
                }
            }
            case "{" -> object();
            default -> throw error("a term", k);
        }
    }

    private void identifier(Token k) {
        String name = k.text();
        switch (name) {
            case "if" -> {
                pipe();
                expect("then");
                pipe();
                while (accept("elif")) {
                    pipe();
                    expect("then");
                    pipe();
                }
                if (accept("else")) {
                    pipe();
                }
                expect("end");
            }
            case "try" -> {
                postfix(true);
                if (accept("catch")) {
                    postfix(true);
                }
            }
            case "reduce", "foreach" -> {
                postfix(false);
                expect("as");
                patterns();
                expect("(");
                pipe();
                expect(";");
                pipe();
                if (name.equals("foreach") && accept(";")) {
                    pipe();
                }
                expect(")");
            }
            case "def", "label" -> {
                p--;
                pipe();
            }
            case "break" -> variable();
            default -> call(name);
        }
    }

    private void call(String name) {
        if (KEYWORDS.contains(name)) {
            throw error("a term, not the keyword " + name);
        }
        int arity = 0;
        if (accept("(")) {
            do {
                pipe();
                arity++;
            } while (accept(";"));
            expect(")");
        }
        if (scope.contains(name + "/" + arity)) {
            return;
        }
        if (ENVIRONMENT.contains(name)) {
            throw new Violation("the program reads the environment (" + name + ")");
        }
        if (name.contains("::")) {
            throw new Violation("the program calls " + name + " from a module");
        }
        if (!BUILTINS.contains(name)) {
            throw new Violation("the function " + name + "/" + arity + " is not on jq's read-only list");
        }
    }

    private void variable() {
        Token v = next();
        if (v.kind() != Kind.VARIABLE) {
            throw error("a $name", v);
        }
        variableNamed(v.text());
    }

    private void variableNamed(String name) {
        if (ENVIRONMENT.contains(name)) {
            throw new Violation("the program reads the environment ($" + name + ")");
        }
    }

    private void object() {
        if (accept("}")) {
            return;
        }
        do {
            Token k = next();
            switch (k.kind()) {
                case IDENT, NUMBER -> {
                    // a key: {env: 1} and {env} name fields, not calls
                }
                case VARIABLE -> variableNamed(k.text());
                case STRING_START -> stringRest();
                case FORMAT -> {
                    if (peek().kind() == Kind.STRING_START) {
                        next();
                        stringRest();
                    }
                }
                case OP -> {
                    if (!k.is("(")) {
                        throw error("an object key", k);
                    }
                    pipe();
                    expect(")");
                }
                default -> throw error("an object key", k);
            }
            if (accept(":")) {
                objectValue();
            }
        } while (accept(","));
        expect("}");
    }

    private void objectValue() {
        do {
            while (accept("-")) {
                // negated
            }
            postfix(false);
        } while (accept("|"));
    }

    private void patterns() {
        pattern();
        while (peek().is("?") && at(1).is("//")) {
            next();
            next();
            pattern();
        }
    }

    private void pattern() {
        enter();
        Token k = next();
        if (k.kind() == Kind.VARIABLE) {
            variableNamed(k.text());
        } else if (k.is("[")) {
            do {
                pattern();
            } while (accept(","));
            expect("]");
        } else if (k.is("{")) {
            do {
                Token key = next();
                if (key.kind() == Kind.VARIABLE) {
                    variableNamed(key.text());
                    if (!accept(":")) {
                        continue;
                    }
                } else {
                    if (key.kind() == Kind.STRING_START) {
                        stringRest();
                    } else if (key.is("(")) {
                        pipe();
                        expect(")");
                    } else if (key.kind() != Kind.IDENT) {
                        throw error("a pattern key", key);
                    }
                    expect(":");
                }
                pattern();
            } while (accept(","));
            expect("}");
        } else {
            throw error("a pattern", k);
        }
        depth--;
    }

    private void string() {
        expect("\"");
        stringRest();
    }

    /** After a string's opening quote: its interpolations, up to the closing quote. */
    private void stringRest() {
        while (peek().kind() == Kind.INTERPOLATION) {
            next();
            pipe();
            expect(")");
        }
        if (next().kind() != Kind.STRING_END) {
            throw error("the end of a string");
        }
    }

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

    private boolean accept(String op) {
        if (peek().is(op) || peek().kind() == Kind.STRING_START && op.equals("\"")) {
            next();
            return true;
        }
        return false;
    }

    private void expect(String op) {
        if (!accept(op)) {
            throw error(op);
        }
    }

    private void enter() {
        if (++depth > MAX_DEPTH) {
            throw new AwkLexer.Error("nested more than " + MAX_DEPTH + " deep");
        }
    }

    private AwkLexer.Error error(String wanted) {
        return error(wanted, peek());
    }

    private AwkLexer.Error error(String wanted, Token k) {
        return new AwkLexer.Error("expected " + wanted + " at " + k.at() + ", found "
                + (k.kind() == Kind.END ? "the end" : "'" + k.text() + "'"));
    }
}
