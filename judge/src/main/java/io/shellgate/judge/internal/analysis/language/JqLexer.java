package io.shellgate.judge.internal.analysis.language;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;

/**
 * Splits a jq program into tokens. A string's interpolations ({@code "\(env)"}) come out as
 * ordinary tokens between {@code \(} and {@code )} marks, so that the parser sees the code in
 * them. {@code $ ENV} (with a space, which jq 1.6 accepts) is the variable {@code ENV}; a comment
 * ends at the end of its line (jq 1.7.1 continues one over a backslash-newline: ending it sooner
 * only shows more code, never less).
 */
final class JqLexer {

    enum Kind { IDENT, FIELD, VARIABLE, FORMAT, NUMBER, STRING_START, STRING_END, INTERPOLATION, OP, END }

    record Token(Kind kind, String text, int at) implements TokenCursor.Lexeme {

        @Override
        public boolean atEnd() {
            return kind == Kind.END;
        }

        boolean is(String op) {
            return (kind == Kind.OP || kind == Kind.IDENT) && text.equals(op);
        }
    }

    /** {@code ?//} comes out as {@code ?} and {@code //}: the parser reads the pair as the alternative pattern separator. */
    private static final List<String> OPERATORS = List.of("//=", "|=", "+=", "-=", "*=", "/=", "%=", "==", "!=", "<=",
            ">=", "//", "..", "|", ",", "+", "-", "*", "/", "%", "=", "<", ">", ".", "[", "]", "{", "}", "(", ")", ":", ";",
            "?");

    private final String s;
    private int i;
    private final List<Token> out = new ArrayList<>();
    /** For each open interpolation, the depth of parentheses inside it. */
    private final Deque<int[]> interpolations = new ArrayDeque<>();

    private JqLexer(String s) {
        this.s = s;
    }

    static List<Token> tokens(String program) {
        JqLexer l = new JqLexer(program);
        l.run();
        return l.out;
    }

    private void run() {
        while (i < s.length()) {
            char c = s.charAt(i);
            if (Character.isWhitespace(c)) {
                i++;
            } else if (c == '#') {
                while (i < s.length() && s.charAt(i) != '\n') {
                    i++;
                }
            } else if (c == '"') {
                out.add(new Token(Kind.STRING_START, "\"", i++));
                string();
            } else if (c == '$') {
                int start = i++;
                while (i < s.length() && Character.isWhitespace(s.charAt(i))) {
                    i++;
                }
                String name = ident();
                if (name.isEmpty()) {
                    throw new SyntaxError("a $ without a name at " + start);
                }
                out.add(new Token(Kind.VARIABLE, name, start));
            } else if (c == '@') {
                int start = i++;
                out.add(new Token(Kind.FORMAT, ident(), start));
            } else if (Character.isDigit(c) || c == '.' && i + 1 < s.length() && Character.isDigit(s.charAt(i + 1))) {
                number();
            } else if (c == '.' && i + 1 < s.length() && (Character.isLetter(s.charAt(i + 1)) || s.charAt(i + 1) == '_')) {
                int start = i++;
                out.add(new Token(Kind.FIELD, ident(), start));
            } else if (Character.isLetter(c) || c == '_') {
                int start = i;
                out.add(new Token(Kind.IDENT, ident(), start));
            } else if (c == ')' && !interpolations.isEmpty() && interpolations.peek()[0] == 0) {
                interpolations.pop();
                out.add(new Token(Kind.OP, ")", i++));
                string();
            } else {
                operator();
            }
        }
        if (!interpolations.isEmpty()) {
            throw new SyntaxError("an interpolation that is not closed");
        }
        out.add(new Token(Kind.END, "", s.length()));
    }

    /** A name, with module qualifiers ({@code mod::name}) kept in it. */
    private String ident() {
        int start = i;
        while (i < s.length() && (Character.isLetterOrDigit(s.charAt(i)) || s.charAt(i) == '_'
                || s.startsWith("::", i) && i + 2 < s.length() && Character.isLetter(s.charAt(i + 2)))) {
            i += s.startsWith("::", i) ? 2 : 1;
        }
        return s.substring(start, i);
    }

    private void number() {
        int start = i;
        while (i < s.length() && (Character.isDigit(s.charAt(i)) || s.charAt(i) == '.')) {
            i++;
        }
        if (i < s.length() && (s.charAt(i) == 'e' || s.charAt(i) == 'E')) {
            i++;
            if (i < s.length() && (s.charAt(i) == '+' || s.charAt(i) == '-')) {
                i++;
            }
            while (i < s.length() && Character.isDigit(s.charAt(i))) {
                i++;
            }
        }
        out.add(new Token(Kind.NUMBER, s.substring(start, i), start));
    }

    /** The rest of a string after its opening quote or after an interpolation's closing parenthesis. */
    private void string() {
        while (i < s.length()) {
            char c = s.charAt(i);
            if (c == '"') {
                out.add(new Token(Kind.STRING_END, "\"", i++));
                return;
            }
            if (c == '\\' && i + 1 < s.length() && s.charAt(i + 1) == '(') {
                out.add(new Token(Kind.INTERPOLATION, "\\(", i));
                i += 2;
                interpolations.push(new int[] {0});
                return;
            }
            i += c == '\\' ? 2 : 1;
        }
        throw new SyntaxError("a string that is not closed");
    }

    private void operator() {
        for (String op : OPERATORS) {
            if (s.startsWith(op, i)) {
                if (!interpolations.isEmpty()) {
                    if (op.equals("(")) {
                        interpolations.peek()[0]++;
                    } else if (op.equals(")")) {
                        interpolations.peek()[0]--;
                    }
                }
                out.add(new Token(Kind.OP, op, i));
                i += op.length();
                return;
            }
        }
        throw new SyntaxError("the character '" + s.charAt(i) + "' at " + i + " is not jq");
    }
}
