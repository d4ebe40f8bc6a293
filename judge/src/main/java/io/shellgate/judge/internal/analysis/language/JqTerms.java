package io.shellgate.judge.internal.analysis.language;

import io.shellgate.judge.internal.analysis.language.JqLexer.Kind;
import io.shellgate.judge.internal.analysis.language.JqLexer.Token;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/** The terms of a jq program: literals, paths, calls, objects, variables and destructuring patterns. */
abstract class JqTerms extends JqCursor {

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
    /** Functions in scope as name/arity: the program's own definitions and their filter parameters. */
    final List<String> scope = new ArrayList<>();

    JqTerms(List<Token> tokens) {
        super(tokens);
    }

    /** A whole filter: terms joined by pipes and the operators. */
    abstract void pipe();

    /** A term followed by its suffixes ({@code .a}, {@code [0]}, {@code ?}, {@code as $x}). */
    abstract void postfix(boolean binding);

    void term() {
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

    void operatorTerm(Token k) {
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

    void identifier(Token k) {
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

    void call(String name) {
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

    void variable() {
        Token v = next();
        if (v.kind() != Kind.VARIABLE) {
            throw error("a $name", v);
        }
        variableNamed(v.text());
    }

    void variableNamed(String name) {
        if (ENVIRONMENT.contains(name)) {
            throw new Violation("the program reads the environment ($" + name + ")");
        }
    }

    void object() {
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

    void objectValue() {
        do {
            while (accept("-")) {
                // negated
            }
            postfix(false);
        } while (accept("|"));
    }

    void patterns() {
        pattern();
        while (peek().is("?") && at(1).is("//")) {
            next();
            next();
            pattern();
        }
    }

    void pattern() {
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

    void string() {
        expect("\"");
        stringRest();
    }

    /** After a string's opening quote: its interpolations, up to the closing quote. */
    void stringRest() {
        while (peek().kind() == Kind.INTERPOLATION) {
            next();
            pipe();
            expect(")");
        }
        if (next().kind() != Kind.STRING_END) {
            throw error("the end of a string");
        }
    }
}
