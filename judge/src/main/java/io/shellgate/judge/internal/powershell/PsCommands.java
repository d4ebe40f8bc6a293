package io.shellgate.judge.internal.powershell;

import java.util.ArrayList;
import java.util.List;

/**
 * Pipelines and commands in argument mode: the call operator and dot-sourcing, parameters
 * ({@code -Name}, {@code -Name:value}, {@code --}, {@code --%}), arguments that join barewords,
 * strings and variables, and redirections.
 */
final class PsCommands {

    private PsCommands() {}

    static PsAst.Pipeline pipeline(PsParser p) {
        PsScanner s = p.s;
        int start = s.pos;
        List<PsAst.Element> elements = new ArrayList<>();
        elements.add(element(p, true));
        while (true) {
            s.skip(false);
            if (s.peek() != '|' || s.peek(1) == '|') {
                break;
            }
            s.pos++;
            s.skip(true);
            elements.add(element(p, false));
        }
        return new PsAst.Pipeline(elements, s.span(start));
    }

    private static PsAst.Element element(PsParser p, boolean first) {
        PsScanner s = p.s;
        s.skip(false);
        int start = s.pos;
        char c = s.peek();
        String invocation = "";
        if (c == '&' && s.peek(1) != '&' || c == '.' && (PsScanner.isSpace(s.peek(1)) || s.peek(1) == '{' || s.peek(1) == '(')) {
            invocation = String.valueOf(c);
            s.pos++;
            s.skip(false);
        } else if (first && p.expressions.startsExpression()) {
            PsAst.Expr e = p.expressions.expression();
            return new PsAst.ExprElement(e, redirects(p), s.span(start));
        }
        if (s.atEnd() || PsScanner.endsBareword(s.peek()) && "({".indexOf(s.peek()) < 0) {
            throw s.error("a command name was expected");
        }
        PsAst.Expr name = invocation.isEmpty() ? commandName(p) : argument(p);
        List<PsAst.Arg> args = new ArrayList<>();
        List<PsAst.Redirect> redirects = new ArrayList<>();
        boolean endOfParameters = false;
        while (true) {
            s.skip(false);
            c = s.peek();
            if (s.atEnd() || PsScanner.isNewline(c) || c == ';' || c == '|' || c == ')' || c == '}') {
                break;
            }
            if (c == '&') {
                if (s.peek(1) == '&') {
                    break;
                }
                throw s.error("& at the end of a command (a background job) is not judged");
            }
            if (c == ',') {
                // a, b is one array argument
                s.pos++;
                s.skip(true);
                if (args.isEmpty() || !(args.getLast() instanceof PsAst.Value previous)) {
                    throw s.error("a comma without an argument before it");
                }
                PsAst.Expr next = argument(p);
                List<PsAst.Expr> items = new ArrayList<>(previous.value() instanceof PsAst.Compound a && a.kind() == PsAst.Compound.Kind.ARRAY
                        ? a.parts() : List.of(previous.value()));
                items.add(next);
                args.set(args.size() - 1, new PsAst.Value(new PsAst.Compound(PsAst.Compound.Kind.ARRAY, items, s.span(previous.span().start())),
                        s.span(previous.span().start())));
                continue;
            }
            PsAst.Redirect r = redirect(p);
            if (r != null) {
                redirects.add(r);
                continue;
            }
            int argStart = s.pos;
            if (s.startsWith("--%") && (PsScanner.isSpace(s.peek(3)) || s.peek(3) == '\0' || PsScanner.isNewline(s.peek(3)))) {
                int end = s.pos;
                while (end < s.text.length() && !PsScanner.isNewline(s.text.charAt(end))) {
                    end++;
                }
                String rest = s.text.substring(s.pos + 3, end);
                s.pos = end;
                args.add(new PsAst.StopParsing(rest, s.span(argStart)));
                continue;
            }
            if (!endOfParameters && PsScanner.isDash(c) && PsScanner.isDash(s.peek(1)) && PsScanner.endsBareword(s.peek(2))) {
                s.pos += 2;
                endOfParameters = true;
                args.add(new PsAst.Value(new PsAst.Literal("--", false, s.span(argStart)), s.span(argStart)));
                continue;
            }
            if (!endOfParameters && PsScanner.isDash(c) && (Character.isLetter(s.peek(1)) || s.peek(1) == '_' || s.peek(1) == '?')) {
                args.add(parameter(p));
                continue;
            }
            PsAst.Expr value = argument(p);
            args.add(new PsAst.Value(value, s.span(argStart)));
        }
        return new PsAst.CommandCall(invocation, name, args, redirects, s.span(start));
    }

    private static PsAst.Expr commandName(PsParser p) {
        PsScanner s = p.s;
        char c = s.peek();
        if (PsScanner.isSingleQuote(c) || PsScanner.isDoubleQuote(c) || c == '$' || c == '@' || c == '(' || c == '{') {
            throw s.error("a command name that is a string or an expression needs the call operator &");
        }
        return s.expandable(true);
    }

    private static PsAst.Arg parameter(PsParser p) {
        PsScanner s = p.s;
        int start = s.pos;
        s.pos++;
        int nameStart = s.pos;
        while (!PsScanner.endsBareword(s.peek()) && s.peek() != ':' && !s.atEnd()) {
            if (s.peek() == '`' || s.peek() == '$' || PsScanner.isSingleQuote(s.peek()) || PsScanner.isDoubleQuote(s.peek())) {
                throw s.error("a parameter name with quotes, escapes or variables is not judged");
            }
            s.pos++;
        }
        String name = s.text.substring(nameStart, s.pos);
        PsAst.Expr value = null;
        if (s.peek() == ':') {
            s.pos++;
            s.skip(false);
            value = argument(p);
        }
        return new PsAst.Param(name, value, s.span(start));
    }

    /** One argument: parts written next to each other ({@code a"b"$c}) make one. */
    static PsAst.Expr argument(PsParser p) {
        PsScanner s = p.s;
        int start = s.pos;
        List<PsAst.Expr> parts = new ArrayList<>();
        while (!s.atEnd()) {
            char c = s.peek();
            if (c == '$' || c == '@' || c == '(' || c == '{') {
                parts.add(p.expressions.postfix(p.expressions.primary()));
            } else if (PsScanner.endsBareword(c)) {
                break;
            } else if (PsScanner.isSingleQuote(c) && !p.s.startsWith("'@")) {
                parts.add(s.singleQuoted());
            } else if (PsScanner.isDoubleQuote(c)) {
                parts.add(s.expandable(false));
            } else {
                parts.add(s.expandable(true));
            }
            if (parts.getLast() instanceof PsAst.ScriptBlock || parts.size() > 64) {
                break;
            }
        }
        if (parts.isEmpty()) {
            throw s.error("an argument was expected");
        }
        return parts.size() == 1 ? parts.getFirst() : new PsAst.Expandable(parts, s.span(start));
    }

    /** A redirection at the cursor, or null. */
    static PsAst.Redirect redirect(PsParser p) {
        PsScanner s = p.s;
        int start = s.pos;
        int i = s.pos;
        if (s.peek() == '*' || Character.isDigit(s.peek()) && s.peek() != '0') {
            i++;
        }
        if (i >= s.text.length() || s.text.charAt(i) != '>' && s.text.charAt(i) != '<') {
            return null;
        }
        if (s.text.charAt(i) == '<') {
            throw s.error("the < operator is reserved in PowerShell");
        }
        i++;
        boolean append = i < s.text.length() && s.text.charAt(i) == '>';
        if (append) {
            i++;
        }
        String op = s.text.substring(start, i);
        s.pos = i;
        if (s.peek() == '&' && Character.isDigit(s.peek(1))) {
            s.pos += 2;
            return new PsAst.Redirect(op + "&", null, s.span(start));
        }
        s.skip(false);
        if (s.atEnd() || PsScanner.endsBareword(s.peek()) && "({".indexOf(s.peek()) < 0) {
            throw s.error("a redirection without a target");
        }
        return new PsAst.Redirect(op, argument(p), s.span(start));
    }

    static List<PsAst.Redirect> redirects(PsParser p) {
        List<PsAst.Redirect> out = new ArrayList<>();
        while (true) {
            p.s.skip(false);
            PsAst.Redirect r = redirect(p);
            if (r == null) {
                return out;
            }
            out.add(r);
        }
    }
}
