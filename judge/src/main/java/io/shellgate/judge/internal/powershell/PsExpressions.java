package io.shellgate.judge.internal.powershell;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * PowerShell expressions, read for what they contain rather than what they compute: operands,
 * subexpressions, script blocks, member and static calls. Operators are skipped over; their
 * precedence does not change which code runs.
 */
final class PsExpressions {

    private final PsParser p;
    private final PsScanner s;

    PsExpressions(PsParser p) {
        this.p = p;
        this.s = p.s;
    }

    /** Whether the text at the cursor starts an expression rather than a command. */
    boolean startsExpression() {
        char c = s.peek();
        return c == '$' || c == '@' || c == '(' || c == '[' || c == '{' || c == '!' || c == ',' || c == '+'
                || PsScanner.isSingleQuote(c) || PsScanner.isDoubleQuote(c)
                || PsScanner.isDash(c) && (Character.isLetterOrDigit(s.peek(1)) || s.peek(1) == '.' || PsScanner.isDash(s.peek(1)))
                || Character.isDigit(c) && numberEnd(s.pos) > 0;
    }

    /** Where a number starting at {@code i} ends, or -1 when the token there is not a number. */
    private int numberEnd(int i) {
        String t = s.text;
        int j = i;
        if (t.startsWith("0x", j) || t.startsWith("0X", j)) {
            j += 2;
            while (j < t.length() && Character.digit(t.charAt(j), 16) >= 0) {
                j++;
            }
        } else {
            while (j < t.length() && (Character.isDigit(t.charAt(j)) || t.charAt(j) == '.' && !t.startsWith("..", j))) {
                j++;
            }
            if (j < t.length() && (t.charAt(j) == 'e' || t.charAt(j) == 'E') && j + 1 < t.length() && Character.isDigit(t.charAt(j + 1))) {
                j += 2;
                while (j < t.length() && Character.isDigit(t.charAt(j))) {
                    j++;
                }
            }
        }
        while (j < t.length() && "lLdDuUyYnNsS".indexOf(t.charAt(j)) >= 0) {
            j++;
        }
        if (j + 1 < t.length() && "kKmMgGtTpP".indexOf(t.charAt(j)) >= 0 && (t.charAt(j + 1) == 'b' || t.charAt(j + 1) == 'B')) {
            j += 2;
        }
        if (j == i || j < t.length() && (PsScanner.isNameChar(t.charAt(j)) || t.charAt(j) == '\\' || t.charAt(j) == ':')) {
            return -1;
        }
        return j;
    }

    PsAst.Expr expression() {
        p.enter();
        int start = s.pos;
        List<PsAst.Expr> parts = new ArrayList<>();
        parts.add(unary());
        boolean commas = true;
        while (true) {
            int mark = s.pos;
            s.skip(false);
            boolean comma = s.peek() == ',';
            int operator = s.pos;
            if (!binaryOperator()) {
                s.pos = mark;
                break;
            }
            commas &= comma;
            String op = s.text.substring(operator + 1, s.pos).toLowerCase(Locale.ROOT);
            s.skip(true);
            PsAst.Expr right = unary();
            if (!comma && op.equals("as")) {
                // x -as [T] converts as [T]x does (running T's constructor or parser); a failure gives $null, not an error
                PsAst.Expr left = parts.removeLast();
                parts.add(new PsAst.Compound(PsAst.Compound.Kind.CAST, List.of(right, left), s.span(left.span().start())));
            } else {
                parts.add(right);
            }
        }
        p.leave();
        return parts.size() == 1 ? parts.getFirst()
                : new PsAst.Compound(commas ? PsAst.Compound.Kind.ARRAY : PsAst.Compound.Kind.OPERATOR, parts, s.span(start));
    }

    /** Consumes a binary operator at the cursor. */
    private boolean binaryOperator() {
        char c = s.peek();
        if (c == '|' || c == '&' || c == '=' || s.peek(1) == '=' && "+-*/%".indexOf(c) >= 0) {
            return false;
        }
        if (s.startsWith("..") || s.startsWith("??") && s.peek(2) != '=') {
            s.pos += 2;
            return true;
        }
        if (c == '+' || c == '*' || c == '/' || c == '%' || c == ',' || c == '?' || c == ':') {
            s.pos++;
            return true;
        }
        if (PsScanner.isDash(c)) {
            s.pos++;
            while (Character.isLetter(s.peek())) {
                s.pos++;
            }
            return true;
        }
        return false;
    }

    private PsAst.Expr unary() {
        s.skip(false);
        int start = s.pos;
        char c = s.peek();
        if (c == '!' || c == ',' || c == '+' || PsScanner.isDash(c)) {
            s.pos++;
            if ((c == '+' || PsScanner.isDash(c)) && (s.peek() == c)) {
                s.pos++;
            }
            while (PsScanner.isDash(c) && Character.isLetter(s.peek())) {
                s.pos++;
            }
            s.skip(true);
            return new PsAst.Compound(PsAst.Compound.Kind.UNARY, List.of(unary()), s.span(start));
        }
        if (c == '[') {
            PsAst.Expr type = typeName();
            if (s.startsWith("::")) {
                return postfix(type);
            }
            int mark = s.pos;
            s.skip(false);
            if (startsExpression() && s.peek() != ',' && s.peek() != '+' && !PsScanner.isDash(s.peek())) {
                return new PsAst.Compound(PsAst.Compound.Kind.CAST, List.of(type, unary()), s.span(start));
            }
            s.pos = mark;
            return postfix(type);
        }
        return postfix(primary());
    }

    PsAst.Expr primary() {
        int start = s.pos;
        char c = s.peek();
        if (c == '$') {
            return s.dollar();
        }
        if (c == '@') {
            char n = s.peek(1);
            if (n == '(') {
                s.pos += 2;
                List<PsAst.Statement> body = p.statements(')');
                s.pos++;
                return new PsAst.SubExpr(body, s.span(start));
            }
            if (n == '{') {
                return PsHashTables.parse(p);
            }
            if (PsScanner.isSingleQuote(n) || PsScanner.isDoubleQuote(n)) {
                return PsHashTables.hereString(p);
            }
            s.pos++;
            return new PsAst.Variable(s.variableName(), true, s.span(start));
        }
        if (c == '(') {
            s.pos++;
            List<PsAst.Statement> body = p.statements(')');
            s.pos++;
            return new PsAst.SubExpr(body, s.span(start));
        }
        if (c == '{') {
            s.pos++;
            List<PsAst.Statement> body = p.statements('}');
            s.pos++;
            return new PsAst.ScriptBlock(body, s.span(start));
        }
        if (PsScanner.isSingleQuote(c)) {
            return s.singleQuoted();
        }
        if (PsScanner.isDoubleQuote(c)) {
            return s.expandable(false);
        }
        if (c == '[') {
            return typeName();
        }
        int end = Character.isDigit(c) ? numberEnd(s.pos) : -1;
        if (end > 0) {
            s.pos = end;
            return new PsAst.Literal(s.text.substring(start, end), false, s.span(start));
        }
        throw s.error("an expression was expected");
    }

    /** {@code [Type]} (brackets may nest, as in {@code [Collections.Generic.List[string]]}). */
    PsAst.TypeName typeName() {
        int start = s.pos;
        int depth = 0;
        while (!s.atEnd()) {
            char c = s.text.charAt(s.pos++);
            if (c == '[') {
                depth++;
            } else if (c == ']' && --depth == 0) {
                return new PsAst.TypeName(s.text.substring(start + 1, s.pos - 1).strip(), s.span(start));
            } else if (PsScanner.isNewline(c)) {
                break;
            }
        }
        throw s.error("a [type] is not closed");
    }

    /** Member access, method calls, static members, indexes and ++/-- after an operand. */
    PsAst.Expr postfix(PsAst.Expr target) {
        PsAst.Expr e = target;
        while (true) {
            int start = s.pos;
            boolean isStatic = s.startsWith("::");
            if (isStatic || s.peek() == '.' && s.peek(1) != '.' || s.startsWith("?.")) {
                s.pos += isStatic || s.peek() == '?' ? 2 : 1;
                String name;
                if (PsScanner.isNameChar(s.peek())) {
                    int n = s.pos;
                    while (PsScanner.isNameChar(s.peek())) {
                        s.pos++;
                    }
                    name = s.text.substring(n, s.pos);
                } else {
                    // a member named by a string or a variable: which member is chosen at run time
                    PsAst.Expr dynamic = primary();
                    name = dynamic instanceof PsAst.Literal l ? l.value() : null;
                    if (name == null) {
                        e = new PsAst.Compound(PsAst.Compound.Kind.MEMBER, List.of(e, dynamic), s.span(start));
                    }
                }
                List<PsAst.Expr> args = null;
                if (s.peek() == '(') {
                    args = arguments();
                }
                e = new PsAst.Member(e, name, isStatic, args, s.span(start));
            } else if (s.peek() == '[') {
                s.pos++;
                s.skip(true);
                PsAst.Expr index = expression();
                s.skip(true);
                if (s.peek() != ']') {
                    throw s.error("an index [ ] is not closed");
                }
                s.pos++;
                e = new PsAst.Compound(PsAst.Compound.Kind.INDEX, List.of(e, index), s.span(start));
            } else if (s.startsWith("++") || s.startsWith("--")) {
                s.pos += 2;
            } else {
                return e;
            }
        }
    }

    /** A method call's {@code (a, b)} at the cursor. */
    private List<PsAst.Expr> arguments() {
        s.pos++;
        List<PsAst.Expr> out = new ArrayList<>();
        s.skip(true);
        if (s.peek() == ')') {
            s.pos++;
            return out;
        }
        out.add(expression());
        s.skip(true);
        if (s.peek() != ')') {
            throw s.error("a method call's ( ) is not closed");
        }
        s.pos++;
        return out;
    }
}
