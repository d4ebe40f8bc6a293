package io.shellgate.judge.internal.powershell;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/** The keyword statements of PowerShell: control flow, functions, and the blocks of a script block. */
final class PsKeywords {

    static final Set<String> ALL = Set.of("if", "while", "for", "foreach", "do", "switch", "try", "trap", "function",
            "filter", "return", "throw", "exit", "break", "continue", "param", "begin", "process", "end", "clean");

    private PsKeywords() {}

    /** The statement the keyword at the cursor starts, or null when the word is a command after all. */
    static PsAst.Statement parse(PsParser p, String keyword) {
        PsScanner s = p.s;
        int start = s.pos;
        int after = start + keyword.length();
        List<PsAst.Expr> exprs = new ArrayList<>();
        List<List<PsAst.Statement>> bodies = new ArrayList<>();
        switch (keyword) {
            case "begin", "process", "end", "clean" -> {
                s.pos = after;
                s.skip(true);
                if (s.peek() != '{') {
                    s.pos = start;
                    return null;
                }
                bodies.add(p.block());
            }
            case "if" -> {
                s.pos = after;
                bodies.add(p.parenthesised());
                bodies.add(p.block());
                while (true) {
                    int mark = s.pos;
                    s.skip(true);
                    if (word(s, "elseif")) {
                        bodies.add(p.parenthesised());
                        bodies.add(p.block());
                    } else if (word(s, "else")) {
                        bodies.add(p.block());
                        break;
                    } else {
                        s.pos = mark;
                        break;
                    }
                }
            }
            case "while", "for" -> {
                s.pos = after;
                bodies.add(p.parenthesised());
                bodies.add(p.block());
            }
            case "do" -> {
                s.pos = after;
                bodies.add(p.block());
                s.skip(true);
                if (!word(s, "while") && !word(s, "until")) {
                    throw s.error("do { } needs while or until");
                }
                bodies.add(p.parenthesised());
            }
            case "foreach" -> {
                s.pos = after;
                s.skip(true);
                if (s.peek() != '(') {
                    throw s.error("foreach needs ( $item in collection )");
                }
                s.pos++;
                s.skip(true);
                exprs.add(p.expressions.expression());
                s.skip(true);
                if (!word(s, "in")) {
                    throw s.error("foreach needs ( $item in collection )");
                }
                bodies.add(p.statements(')'));
                s.pos++;
                bodies.add(p.block());
            }
            case "switch" -> switchStatement(p, after, exprs, bodies);
            case "try" -> {
                s.pos = after;
                bodies.add(p.block());
                while (true) {
                    int mark = s.pos;
                    s.skip(true);
                    if (word(s, "catch")) {
                        typeList(p);
                        bodies.add(p.block());
                    } else if (word(s, "finally")) {
                        bodies.add(p.block());
                    } else {
                        s.pos = mark;
                        break;
                    }
                }
            }
            case "trap" -> {
                s.pos = after;
                typeList(p);
                bodies.add(p.block());
            }
            case "function", "filter" -> {
                return function(p, after, start);
            }
            case "param" -> {
                s.pos = after;
                bodies.add(p.parenthesised());
            }
            case "return", "throw", "exit" -> {
                s.pos = after;
                s.skip(false);
                if (!s.atEnd() && ";)}|".indexOf(s.peek()) < 0 && !PsScanner.isNewline(s.peek())) {
                    bodies.add(List.of(p.statement()));
                }
            }
            case "break", "continue" -> {
                s.pos = after;
                s.skip(false);
                if (PsScanner.isNameChar(s.peek())) {
                    while (PsScanner.isNameChar(s.peek())) {
                        s.pos++;
                    }
                }
            }
            default -> throw s.error("unknown keyword " + keyword);
        }
        return new PsAst.Block(keyword, exprs, bodies, s.span(start));
    }

    private static void switchStatement(PsParser p, int after, List<PsAst.Expr> exprs, List<List<PsAst.Statement>> bodies) {
        PsScanner s = p.s;
        s.pos = after;
        String keyword = "switch";
        while (true) {
            s.skip(true);
            if (!PsScanner.isDash(s.peek())) {
                break;
            }
            s.pos++;
            int nameStart = s.pos;
            while (Character.isLetter(s.peek())) {
                s.pos++;
            }
            String option = s.text.substring(nameStart, s.pos).toLowerCase(Locale.ROOT);
            if ("file".startsWith(option) && !option.isEmpty()) {
                s.skip(false);
                exprs.add(PsCommands.argument(p));
                keyword = "switch-file";
            } else if (option.isEmpty() || !List.of("regex", "wildcard", "exact", "casesensitive").stream().anyMatch(o -> o.startsWith(option))) {
                throw s.error("unknown switch option -" + option);
            }
        }
        if (keyword.equals("switch")) {
            bodies.add(p.parenthesised());
        }
        s.skip(true);
        if (s.peek() != '{') {
            throw s.error("switch needs { clauses }");
        }
        s.pos++;
        while (true) {
            s.skip(true);
            if (s.peek() == ';') {
                s.pos++;
                continue;
            }
            if (s.peek() == '}') {
                s.pos++;
                break;
            }
            if (s.atEnd()) {
                throw s.error("a switch is not closed");
            }
            exprs.add(PsCommands.argument(p));
            bodies.add(p.block());
        }
        if (keyword.equals("switch-file")) {
            bodies.addFirst(List.of(new PsAst.Block("switch-file", List.of(exprs.getFirst()), List.of(), s.span(after))));
        }
    }

    private static PsAst.Statement function(PsParser p, int after, int start) {
        PsScanner s = p.s;
        s.pos = after;
        s.skip(false);
        int nameStart = s.pos;
        while (!s.atEnd() && !PsScanner.isSpace(s.peek()) && "({".indexOf(s.peek()) < 0 && !PsScanner.isNewline(s.peek())) {
            s.pos++;
        }
        String name = s.text.substring(nameStart, s.pos);
        if (name.isEmpty()) {
            throw s.error("a function without a name");
        }
        List<PsAst.Statement> body = new ArrayList<>();
        s.skip(true);
        if (s.peek() == '(') {
            body.add(new PsAst.Block("param", List.of(), List.of(p.parenthesised()), s.span(start)));
        }
        body.addAll(p.block());
        return new PsAst.FunctionDef(name, body, s.span(start));
    }

    /** The optional {@code [Type], [Type]} list of catch and trap. */
    private static void typeList(PsParser p) {
        PsScanner s = p.s;
        while (true) {
            s.skip(true);
            if (s.peek() != '[') {
                return;
            }
            p.expressions.typeName();
            s.skip(true);
            if (s.peek() == ',') {
                s.pos++;
            }
        }
    }

    /** Consumes {@code word} (any case) when it stands at the cursor as a whole word. */
    static boolean word(PsScanner s, String word) {
        int end = s.pos + word.length();
        if (end > s.text.length() || !s.text.substring(s.pos, end).equalsIgnoreCase(word)
                || end < s.text.length() && (PsScanner.isNameChar(s.text.charAt(end)) || PsScanner.isDash(s.text.charAt(end)))) {
            return false;
        }
        s.pos = end;
        return true;
    }
}
