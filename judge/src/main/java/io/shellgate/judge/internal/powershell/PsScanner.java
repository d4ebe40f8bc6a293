package io.shellgate.judge.internal.powershell;

import io.shellgate.judge.Span;
import java.util.ArrayList;
import java.util.List;

/**
 * The characters of a PowerShell script: whitespace, comments and line continuations, quotes
 * (typographic quotes and dashes count, as they do for PowerShell), variables, strings and
 * barewords. Subexpressions inside strings are handed back to the parser.
 */
final class PsScanner {

    final String text;
    int pos;
    private final PsParser parser;

    PsScanner(String text, PsParser parser) {
        this.text = text;
        this.parser = parser;
    }

    boolean atEnd() {
        return pos >= text.length();
    }

    char peek() {
        return pos < text.length() ? text.charAt(pos) : '\0';
    }

    char peek(int ahead) {
        return pos + ahead < text.length() ? text.charAt(pos + ahead) : '\0';
    }

    boolean startsWith(String s) {
        return text.startsWith(s, pos);
    }

    PsSyntaxException error(String message) {
        return new PsSyntaxException(message, Math.min(pos, text.length()));
    }

    Span span(int start) {
        return new Span(start, Math.max(start, Math.min(pos, text.length())));
    }

    static boolean isDash(char c) {
        return c == '-' || c == '\u2013' || c == '\u2014' || c == '\u2015';
    }

    static boolean isSingleQuote(char c) {
        return c == '\'' || c == '\u2018' || c == '\u2019' || c == '\u201A' || c == '\u201B';
    }

    static boolean isDoubleQuote(char c) {
        return c == '"' || c == '\u201C' || c == '\u201D' || c == '\u201E';
    }

    static boolean isNewline(char c) {
        return c == '\n' || c == '\r';
    }

    static boolean isSpace(char c) {
        return c == ' ' || c == '\t' || c == '\f' || c == '\u000B' || !isNewline(c) && Character.isSpaceChar(c);
    }

    static boolean isNameChar(char c) {
        return Character.isLetterOrDigit(c) || c == '_';
    }

    /** Skips spaces, comments and continuations, and newlines too when {@code newlines}. */
    void skip(boolean newlines) {
        while (pos < text.length()) {
            char c = text.charAt(pos);
            if (isSpace(c) || newlines && isNewline(c)) {
                pos++;
            } else if (c == '`' && isNewline(peek(1))) {
                pos += peek(1) == '\r' && peek(2) == '\n' ? 3 : 2;
            } else if (c == '<' && peek(1) == '#') {
                int end = text.indexOf("#>", pos + 2);
                if (end < 0) {
                    throw error("a <# comment is not closed");
                }
                parser.comment(new Span(pos, end + 2));
                pos = end + 2;
            } else if (c == '#') {
                int start = pos;
                while (pos < text.length() && !isNewline(text.charAt(pos))) {
                    pos++;
                }
                parser.comment(new Span(start, pos));
            } else {
                return;
            }
        }
    }

    /** The escape a backtick makes of {@code c}, in PowerShell 7 (5.1 lacks {@code `e} and {@code `u}). */
    static String escape(char c) {
        return switch (c) {
            case '0' -> "\0";
            case 'a' -> "\u0007";
            case 'b' -> "\b";
            case 'e' -> "\u001b";
            case 'f' -> "\f";
            case 'n' -> "\n";
            case 'r' -> "\r";
            case 't' -> "\t";
            case 'v' -> "\u000B";
            default -> String.valueOf(c);
        };
    }

    /** A single-quoted string (the opening quote at {@code pos}). */
    PsAst.Literal singleQuoted() {
        int start = pos++;
        StringBuilder sb = new StringBuilder();
        while (true) {
            if (atEnd()) {
                throw error("a quoted string is not closed");
            }
            char c = text.charAt(pos++);
            if (isSingleQuote(c)) {
                if (isSingleQuote(peek())) {
                    sb.append(peek());
                    pos++;
                    continue;
                }
                return new PsAst.Literal(sb.toString(), true, span(start));
            }
            sb.append(c);
        }
    }

    /** A double-quoted string (the opening quote at {@code pos}), or an expandable bareword when {@code bareword}. */
    PsAst.Expr expandable(boolean bareword) {
        return expandable(bareword, -1);
    }

    /** The body of an expandable here-string, from {@code pos} to {@code limit}: quotes there are plain text. */
    PsAst.Expr hereBody(int limit) {
        return expandable(false, limit);
    }

    private PsAst.Expr expandable(boolean bareword, int limit) {
        int start = pos;
        boolean here = limit >= 0;
        if (!bareword && !here) {
            pos++;
        }
        List<PsAst.Expr> parts = new ArrayList<>();
        StringBuilder sb = new StringBuilder();
        int partStart = pos;
        while (true) {
            if (here && pos >= limit) {
                break;
            }
            if (atEnd()) {
                if (bareword) {
                    break;
                }
                throw error("a quoted string is not closed");
            }
            char c = peek();
            if (!bareword && !here && isDoubleQuote(c)) {
                pos++;
                if (isDoubleQuote(peek())) {
                    sb.append(peek());
                    pos++;
                    continue;
                }
                break;
            }
            if (bareword && endsBareword(c)) {
                break;
            }
            if (bareword && isSingleQuote(c)) {
                flush(parts, sb, partStart);
                parts.add(singleQuoted());
                partStart = pos;
                continue;
            }
            if (bareword && isDoubleQuote(c)) {
                flush(parts, sb, partStart);
                parts.add(expandable(false));
                partStart = pos;
                continue;
            }
            if (c == '`') {
                if (pos + 1 >= text.length()) {
                    throw error("a backtick ends the script");
                }
                char next = text.charAt(pos + 1);
                if (next == 'u' && peek(2) == '{') {
                    int close = text.indexOf('}', pos + 3);
                    if (close < 0 || close - pos > 12) {
                        throw error("a `u{...} escape is not closed");
                    }
                    try {
                        sb.appendCodePoint(Integer.parseInt(text.substring(pos + 3, close), 16));
                    } catch (IllegalArgumentException e) {
                        throw error("a `u{...} escape is not a code point");
                    }
                    pos = close + 1;
                    continue;
                }
                sb.append(escape(next));
                pos += 2;
                continue;
            }
            if (c == '$' && (peek(1) == '(' || peek(1) == '{' || isNameChar(peek(1)) || "_?^$".indexOf(peek(1)) >= 0)) {
                flush(parts, sb, partStart);
                parts.add(dollar());
                partStart = pos;
                continue;
            }
            sb.append(c);
            pos++;
        }
        flush(parts, sb, partStart);
        if (parts.size() == 1 && parts.getFirst() instanceof PsAst.Literal l && bareword) {
            return new PsAst.Literal(l.value(), false, span(start));
        }
        if (parts.isEmpty()) {
            return new PsAst.Literal("", !bareword, span(start));
        }
        if (parts.stream().allMatch(p -> p instanceof PsAst.Literal)) {
            StringBuilder all = new StringBuilder();
            parts.forEach(p -> all.append(((PsAst.Literal) p).value()));
            return new PsAst.Literal(all.toString(), true, span(start));
        }
        return new PsAst.Expandable(parts, span(start));
    }

    /** Where an argument-mode bareword ends. */
    static boolean endsBareword(char c) {
        return isSpace(c) || isNewline(c) || c == ';' || c == '|' || c == '&' || c == '(' || c == ')' || c == '{' || c == '}'
                || c == ',' || c == '>' || c == '<' || c == '\0';
    }

    private void flush(List<PsAst.Expr> parts, StringBuilder sb, int start) {
        if (!sb.isEmpty()) {
            parts.add(new PsAst.Literal(sb.toString(), true, new Span(start, Math.max(start, pos))));
            sb.setLength(0);
        }
    }

    /** {@code $name}, {@code ${name}}, {@code $(...)} at {@code pos}. */
    PsAst.Expr dollar() {
        int start = pos;
        pos++;
        if (peek() == '(') {
            pos++;
            List<PsAst.Statement> body = parser.statements(')');
            pos++;
            return new PsAst.SubExpr(body, span(start));
        }
        return new PsAst.Variable(variableName(), false, span(start));
    }

    /** The name after {@code $} or {@code @}: {@code name}, {@code scope:name}, {@code {any text}}, or a special one. */
    String variableName() {
        if (peek() == '{') {
            // a backtick in a braced name escapes the next character: ${env:GITHUB_TO`KEN} is $env:GITHUB_TOKEN
            StringBuilder name = new StringBuilder();
            int i = pos + 1;
            while (i < text.length() && text.charAt(i) != '}') {
                if (text.charAt(i) == '`' && i + 1 < text.length()) {
                    i++;
                }
                name.append(text.charAt(i++));
            }
            if (i >= text.length()) {
                throw error("a ${...} variable is not closed");
            }
            pos = i + 1;
            return name.toString();
        }
        if ("?^$".indexOf(peek()) >= 0) {
            return String.valueOf(text.charAt(pos++));
        }
        int start = pos;
        while (isNameChar(peek())) {
            pos++;
        }
        if (peek() == ':' && pos > start && isNameChar(peek(1))) {
            pos++;
            while (isNameChar(peek())) {
                pos++;
            }
        }
        if (pos == start) {
            throw error("$ without a variable name");
        }
        return text.substring(start, pos);
    }
}
