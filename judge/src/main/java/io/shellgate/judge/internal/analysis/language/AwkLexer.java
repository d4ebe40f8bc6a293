package io.shellgate.judge.internal.analysis.language;

import java.util.ArrayList;
import java.util.List;

/**
 * Splits an awk program into tokens with awk's own rule for the slash: after something that ends
 * an operand (a name, a number, a string, a closing bracket, {@code ++}) it divides, anywhere
 * else it starts a regular expression. {@code 1./2} is one divided by two; {@code x = /2/} is a
 * match.
 */
final class AwkLexer {

    enum Kind { NAME, FUNC_NAME, NUMBER, STRING, REGEX, OP, NEWLINE, AT_NAME, END }

    /** One token; {@code text} is the name, the operator, or a string's value without quotes and escapes. */
    record Token(Kind kind, String text, int at) implements TokenCursor.Lexeme {

        @Override
        public boolean atEnd() {
            return kind == Kind.END;
        }

        boolean is(String op) {
            return (kind == Kind.OP || kind == Kind.NAME) && text.equals(op);
        }
    }

    private static final List<String> OPERATORS = List.of("**=", "+=", "-=", "*=", "/=", "%=", "^=", "==", "<=", ">=",
            "!=", "++", "--", "&&", "||", ">>", "|&", "!~", "**", "::", "{", "}", "(", ")", "[", "]", ";", ",", "+", "-", "*",
            "/", "%", "^", "!", ">", "<", "|", "?", ":", "~", "$", "=");

    private final String s;
    private int i;
    private final List<Token> out = new ArrayList<>();

    private AwkLexer(String s) {
        this.s = s;
    }

    static List<Token> tokens(String program) {
        AwkLexer l = new AwkLexer(program);
        l.run();
        return l.out;
    }

    private void run() {
        while (i < s.length()) {
            char c = s.charAt(i);
            if (c == '\\' && i + 1 < s.length() && s.charAt(i + 1) == '\n') {
                i += 2;
            } else if (c == '\\' && i + 2 < s.length() && s.charAt(i + 1) == '\r' && s.charAt(i + 2) == '\n') {
                i += 3;
            } else if (c == ' ' || c == '\t' || c == '\r') {
                i++;
            } else if (c == '\n') {
                out.add(new Token(Kind.NEWLINE, "\n", i++));
            } else if (c == '#') {
                while (i < s.length() && s.charAt(i) != '\n') {
                    i++;
                }
            } else if (c == '"') {
                string();
            } else if (c == '/' && !operandEnded()) {
                regex();
            } else if (Character.isDigit(c) || c == '.' && i + 1 < s.length() && Character.isDigit(s.charAt(i + 1))) {
                number();
            } else if (Character.isLetter(c) || c == '_') {
                name(Kind.NAME, i);
            } else if (c == '@') {
                int start = i++;
                if (i >= s.length() || !(Character.isLetter(s.charAt(i)) || s.charAt(i) == '_')) {
                    throw new SyntaxError("a lone @ at " + start);
                }
                name(Kind.AT_NAME, start);
            } else {
                operator();
            }
        }
        out.add(new Token(Kind.END, "", s.length()));
    }

    /** Whether the last token ends an operand, so that a slash after it divides. */
    private boolean operandEnded() {
        if (out.isEmpty()) {
            return false;
        }
        Token t = out.getLast();
        return switch (t.kind()) {
            case NAME -> !AwkParser.KEYWORDS.contains(t.text()) || t.text().equals("getline");
            case FUNC_NAME, AT_NAME, NEWLINE, END -> false;
            case NUMBER, STRING, REGEX -> true;
            case OP -> t.text().equals(")") || t.text().equals("]") || t.text().equals("$") || t.text().equals("++")
                    || t.text().equals("--");
        };
    }

    private void name(Kind kind, int start) {
        int from = kind == Kind.AT_NAME ? start + 1 : start;
        int j = from;
        while (j < s.length() && (Character.isLetterOrDigit(s.charAt(j)) || s.charAt(j) == '_')) {
            j++;
        }
        String name = s.substring(from, j);
        i = j;
        // a user function call is a name followed at once by "("
        boolean call = kind == Kind.NAME && j < s.length() && s.charAt(j) == '(' && !AwkParser.KEYWORDS.contains(name);
        out.add(new Token(call ? Kind.FUNC_NAME : kind, name, start));
    }

    private void number() {
        int start = i;
        if (s.startsWith("0x", i) || s.startsWith("0X", i)) {
            i += 2;
            while (i < s.length() && Character.digit(s.charAt(i), 16) >= 0) {
                i++;
            }
        } else {
            while (i < s.length() && Character.isDigit(s.charAt(i))) {
                i++;
            }
            if (i < s.length() && s.charAt(i) == '.') {
                i++;
                while (i < s.length() && Character.isDigit(s.charAt(i))) {
                    i++;
                }
            }
            if (i + 1 < s.length() && (s.charAt(i) == 'e' || s.charAt(i) == 'E')
                    && (Character.isDigit(s.charAt(i + 1)) || (s.charAt(i + 1) == '+' || s.charAt(i + 1) == '-')
                    && i + 2 < s.length() && Character.isDigit(s.charAt(i + 2)))) {
                i += 2;
                while (i < s.length() && Character.isDigit(s.charAt(i))) {
                    i++;
                }
            }
        }
        out.add(new Token(Kind.NUMBER, s.substring(start, i), start));
    }

    private void string() {
        int start = i++;
        StringBuilder sb = new StringBuilder();
        while (i < s.length() && s.charAt(i) != '"') {
            char c = s.charAt(i);
            if (c == '\n') {
                throw new SyntaxError("a string that runs to the end of the line at " + start);
            }
            if (c == '\\' && i + 1 < s.length()) {
                char e = s.charAt(++i);
                switch (e) {
                    case 'n' -> sb.append('\n');
                    case 't' -> sb.append('\t');
                    case 'r' -> sb.append('\r');
                    case '\\', '"', '/' -> sb.append(e);
                    case '\n' -> {
                        // a continued line inside the string
                    }
                    default -> {
                        // octal and other escapes: the name is no longer a plain literal
                        sb.append('\\').append(e);
                    }
                }
                i++;
                continue;
            }
            sb.append(c);
            i++;
        }
        if (i >= s.length()) {
            throw new SyntaxError("a string that is not closed at " + start);
        }
        i++;
        out.add(new Token(Kind.STRING, sb.toString(), start));
    }

    private void regex() {
        int start = i++;
        boolean bracket = false;
        while (i < s.length()) {
            char c = s.charAt(i);
            if (c == '\n') {
                throw new SyntaxError("a regular expression that runs to the end of the line at " + start);
            }
            if (c == '\\') {
                i += 2;
                continue;
            }
            if (bracket) {
                if (c == '[' && i + 1 < s.length() && ":.=".indexOf(s.charAt(i + 1)) >= 0) {
                    // [:alpha:], [.a.], [=a=] inside a class
                    int close = s.indexOf(s.charAt(i + 1) + "]", i + 2);
                    if (close > 0) {
                        i = close + 2;
                        continue;
                    }
                } else if (c == ']') {
                    bracket = false;
                }
            } else if (c == '[') {
                bracket = true;
                // a ] right after [ or [^ is a member of the class
                if (i + 1 < s.length() && s.charAt(i + 1) == '^') {
                    i++;
                }
                if (i + 1 < s.length() && s.charAt(i + 1) == ']') {
                    i++;
                }
            } else if (c == '/') {
                break;
            }
            i++;
        }
        if (i >= s.length()) {
            throw new SyntaxError("a regular expression that is not closed at " + start);
        }
        i++;
        out.add(new Token(Kind.REGEX, s.substring(start + 1, i - 1), start));
    }

    private void operator() {
        for (String op : OPERATORS) {
            if (s.startsWith(op, i)) {
                out.add(new Token(Kind.OP, op, i));
                i += op.length();
                return;
            }
        }
        throw new SyntaxError("the character '" + s.charAt(i) + "' at " + i + " is not awk");
    }
}
