package io.shellgate.judge.internal.powershell;

import io.shellgate.judge.Span;
import java.util.ArrayList;
import java.util.List;

/** Hash table literals {@code @{ key = value; ... }} and here-strings {@code @' ... '@}, {@code @" ... "@}. */
final class PsHashTables {

    private PsHashTables() {}

    static PsAst.Expr parse(PsParser p) {
        PsScanner s = p.s;
        int start = s.pos;
        s.pos += 2;
        List<PsAst.Expr> parts = new ArrayList<>();
        while (true) {
            s.skip(true);
            if (s.peek() == ';') {
                s.pos++;
                continue;
            }
            if (s.peek() == '}') {
                s.pos++;
                return new PsAst.Compound(PsAst.Compound.Kind.HASH, parts, s.span(start));
            }
            if (s.atEnd()) {
                throw s.error("a @{ } hash table is not closed");
            }
            if (PsScanner.isNameChar(s.peek())) {
                int keyStart = s.pos;
                while (!s.atEnd() && !PsScanner.isSpace(s.peek()) && s.peek() != '=') {
                    s.pos++;
                }
                parts.add(new PsAst.Literal(s.text.substring(keyStart, s.pos), false, s.span(keyStart)));
            } else {
                parts.add(p.expressions.expression());
            }
            s.skip(false);
            if (s.peek() != '=') {
                throw s.error("a hash table entry needs key = value");
            }
            s.pos++;
            s.skip(true);
            int valueStart = s.pos;
            PsAst.Statement value = p.statement();
            parts.add(new PsAst.SubExpr(List.of(value), s.span(valueStart)));
        }
    }

    /** A here-string: {@code @'} or {@code @"}, a newline, lines, and the closing quote and {@code @} at a line's start. */
    static PsAst.Expr hereString(PsParser p) {
        PsScanner s = p.s;
        int start = s.pos;
        char quote = s.peek(1);
        boolean expand = PsScanner.isDoubleQuote(quote);
        int i = s.pos + 2;
        while (i < s.text.length() && PsScanner.isSpace(s.text.charAt(i))) {
            i++;
        }
        if (i >= s.text.length() || !PsScanner.isNewline(s.text.charAt(i))) {
            throw s.error("a here-string must start a new line after @' or @\"");
        }
        i += s.text.startsWith("\r\n", i) ? 2 : 1;
        int bodyStart = i;
        int close = -1;
        for (int j = i; j < s.text.length(); j++) {
            boolean lineStart = j == bodyStart || PsScanner.isNewline(s.text.charAt(j - 1));
            if (lineStart && j + 1 < s.text.length() && (expand ? PsScanner.isDoubleQuote(s.text.charAt(j))
                    : PsScanner.isSingleQuote(s.text.charAt(j))) && s.text.charAt(j + 1) == '@') {
                close = j;
                break;
            }
        }
        if (close < 0) {
            throw s.error("a here-string is not closed");
        }
        int bodyEnd = close;
        if (bodyEnd > bodyStart && s.text.charAt(bodyEnd - 1) == '\n') {
            bodyEnd--;
        }
        if (bodyEnd > bodyStart && s.text.charAt(bodyEnd - 1) == '\r') {
            bodyEnd--;
        }
        String body = s.text.substring(bodyStart, Math.max(bodyStart, bodyEnd));
        s.pos = close + 2;
        if (!expand) {
            return new PsAst.Literal(body, true, s.span(start));
        }
        int end = s.pos;
        s.pos = bodyStart;
        PsAst.Expr e = s.hereBody(Math.max(bodyStart, bodyEnd));
        s.pos = end;
        return e instanceof PsAst.Literal l ? new PsAst.Literal(l.value(), true, s.span(start))
                : new PsAst.Expandable(List.of(e), new Span(start, s.pos));
    }
}
