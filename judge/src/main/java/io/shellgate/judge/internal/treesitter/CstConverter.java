package io.shellgate.judge.internal.treesitter;

import io.shellgate.judge.Span;
import io.shellgate.judge.internal.syntax.Assignment;
import io.shellgate.judge.internal.syntax.Command;
import io.shellgate.judge.internal.syntax.Part;
import io.shellgate.judge.internal.syntax.Redirect;
import io.shellgate.judge.internal.syntax.Script;
import io.shellgate.judge.internal.syntax.Word;
import java.util.ArrayList;
import java.util.List;

/**
 * Turns tree-sitter-bash's concrete syntax tree into the judge's {@link Script}. Whatever it does
 * not recognise becomes an opaque node, which the judge never allows; error and missing nodes are
 * recorded, and their children are still converted so that deny rules can see into them.
 */
final class CstConverter {

    /** Deeper syntax trees are not converted (and the line is never allowed). */
    static final int MAX_DEPTH = 200;

    private final String text;
    private int depth;
    private final List<Span> comments = new ArrayList<>();
    private final List<Span> errors = new ArrayList<>();
    private final WordConverter words;
    private final RedirectConverter redirects;

    CstConverter(String text) {
        this.text = text;
        this.words = new WordConverter(text, this::nested, errors);
        this.redirects = new RedirectConverter(text, words, errors);
    }

    Script convert(CstNode root) {
        Command body = sequence(root, 0, root.childCount(), new Span(0, text.length()));
        if (root.hasError()) {
            collectErrors(root, 0);
        }
        return new Script(body, comments, errors.stream().distinct().toList());
    }

    /** Every error and missing node, wherever the statement conversion did not look. */
    private void collectErrors(CstNode node, int depth) {
        if (node.isError() || node.isMissing()) {
            errors.add(new Span(node.start(), node.end()));
        }
        if (depth > MAX_DEPTH) {
            return;
        }
        for (int i = 0; i < node.childCount(); i++) {
            CstNode c = node.child(i);
            if (c.hasError()) {
                collectErrors(c, depth + 1);
            }
        }
    }

    /** The script inside {@code $(...)}, backquotes or {@code <(...)}: its named children. */
    private Script nested(CstNode node) {
        Command body = sequence(node, 0, node.childCount(), new Span(node.start(), node.end()));
        return new Script(body, List.of(), List.of());
    }

    private Command sequence(CstNode parent, int from, int to, Span span) {
        List<Command> items = new ArrayList<>();
        for (int i = from; i < to; i++) {
            CstNode c = parent.child(i);
            if (c.type().equals(";;") || c.type().equals(";&") || c.type().equals(";;&")) {
                // tree-sitter accepts a case terminator anywhere; bash refuses the line
                errors.add(new Span(c.start(), c.end()));
                continue;
            }
            if (c.type().equals("&") && !items.isEmpty()) {
                Command last = items.removeLast();
                items.add(new Command.Background(last, new Span(last.span().start(), c.end())));
                continue;
            }
            statement(c, items);
        }
        return items.size() == 1 ? items.getFirst() : new Command.Sequence(items, span);
    }

    /** Converts one child of a statement list, adding what it finds to {@code out}. */
    private void statement(CstNode n, List<Command> out) {
        Span span = new Span(n.start(), n.end());
        if (depth > MAX_DEPTH) {
            errors.add(span);
            out.add(new Command.Opaque("the command line is nested too deeply", span));
            return;
        }
        depth++;
        try {
            statementAt(n, span, out);
        } finally {
            depth--;
        }
    }

    private void statementAt(CstNode n, Span span, List<Command> out) {
        if (n.isMissing()) {
            errors.add(span);
            return;
        }
        if (!n.isNamed() && !n.isError()) {
            // punctuation and keywords between statements: ; & && || | ( ) { } $( ` do done...
            return;
        }
        switch (n.type()) {
            case "command" -> out.add(simple(n));
            case "declaration_command", "unset_command" -> out.add(declaration(n));
            case "variable_assignment" -> out.add(new Command.Simple(List.of(assignment(n)), List.of(), List.of(), span));
            case "variable_assignments" -> {
                List<Assignment> as = new ArrayList<>();
                for (CstNode c : named(n)) {
                    as.add(assignment(c));
                }
                out.add(new Command.Simple(as, List.of(), List.of(), span));
            }
            case "pipeline" -> out.add(pipeline(n));
            case "list" -> {
                List<Command> items = new ArrayList<>();
                for (int i = 0; i < n.childCount(); i++) {
                    statement(n.child(i), items);
                }
                out.add(new Command.Sequence(items, span));
            }
            case "negated_command" -> out.add(new Command.Negated(single(n), span));
            case "subshell" -> out.add(new Command.Subshell(inner(n), span));
            case "compound_statement" -> out.add(new Command.Group(inner(n), span));
            case "redirected_statement" -> out.add(redirected(n));
            case "file_redirect", "herestring_redirect", "heredoc_redirect" ->
                    out.add(new Command.Simple(List.of(), List.of(), List.of(redirect(n)), span));
            case "function_definition" -> out.add(function(n));
            case "if_statement", "while_statement", "for_statement", "c_style_for_statement", "case_statement",
                 "test_command" -> out.add(compound(n));
            case "comment" -> comments.add(span);
            case "ERROR" -> {
                errors.add(span);
                for (int i = 0; i < n.childCount(); i++) {
                    statement(n.child(i), out);
                }
            }
            default -> {
                if (WordConverter.isWordNode(n)) {
                    // a word where a statement belongs: only error recovery produces this
                    out.add(new Command.Simple(List.of(), List.of(words.word(n)), List.of(), span));
                    errors.add(span);
                } else {
                    out.add(new Command.Opaque("unrecognised shell syntax (" + n.type() + ")", span));
                }
            }
        }
    }

    private Command single(CstNode n) {
        return sequence(n, 0, n.childCount(), new Span(n.start(), n.end()));
    }

    private Command inner(CstNode n) {
        return single(n);
    }

    private Command simple(CstNode n) {
        List<Assignment> assignments = new ArrayList<>();
        List<CstNode> pieces = new ArrayList<>();
        List<Redirect> redirects = new ArrayList<>();
        for (int i = 0; i < n.childCount(); i++) {
            CstNode c = n.child(i);
            switch (c.type()) {
                case "variable_assignment" -> assignments.add(assignment(c));
                case "command_name" -> {
                    for (int j = 0; j < c.childCount(); j++) {
                        pieces.add(c.child(j));
                    }
                }
                case "file_redirect", "herestring_redirect", "heredoc_redirect" -> redirects.add(redirect(c));
                default -> {
                    if (WordConverter.isWordNode(c)) {
                        pieces.add(c);
                    } else if (c.isError() || c.isMissing()) {
                        errors.add(new Span(c.start(), c.end()));
                        for (int j = 0; j < c.childCount(); j++) {
                            if (WordConverter.isWordNode(c.child(j))) {
                                pieces.add(c.child(j));
                            }
                        }
                    } else {
                        pieces.add(c);
                    }
                }
            }
        }
        Span span = new Span(n.start(), n.end());
        if (assignments.isEmpty() && redirects.isEmpty() && pieces.size() == 1 && pieces.getFirst().type().equals("arithmetic_expansion")
                && text.startsWith("((", pieces.getFirst().start())) {
            // (( expr )): an arithmetic command, not a command named by an expansion
            Part.Arithmetic expr = words.arithmetic(pieces.getFirst());
            return new Command.Compound("((", null, List.of(new Word(List.of(expr), expr.span())), List.of(), span);
        }
        return new Command.Simple(assignments, words.words(pieces), redirects, span);
    }

    /** {@code export A=1 B}, {@code declare -x A}, {@code unset A}: a command whose arguments may be assignments. */
    private Command declaration(CstNode n) {
        List<Word> args = new ArrayList<>();
        List<CstNode> pieces = new ArrayList<>();
        for (int i = 0; i < n.childCount(); i++) {
            CstNode c = n.child(i);
            if (i == 0 && !c.isNamed()) {
                args.add(new Word(List.of(new Part.Literal(c.type(), false, new Span(c.start(), c.end()))),
                        new Span(c.start(), c.end())));
            } else if (c.type().equals("variable_assignment")) {
                args.addAll(words.words(pieces));
                pieces.clear();
                Assignment a = assignment(c);
                List<Part> parts = new ArrayList<>();
                if (a.subscript() != null) {
                    // declare 'a[i]=x': the builtin reads the subscript from its argument, as text
                    parts.add(new Part.Literal(a.name() + "[", true, new Span(c.start(), c.start())));
                    parts.addAll(a.subscript().parts());
                    parts.add(new Part.Literal("]" + (a.append() ? "+=" : "="), true, new Span(c.start(), c.start())));
                } else {
                    parts.add(new Part.Literal(a.name() + (a.append() ? "+=" : "="), true, new Span(c.start(), c.start())));
                }
                if (a.value() != null) {
                    parts.addAll(a.value().parts());
                }
                if (a.array() != null) {
                    parts.add(new Part.Opaque("array value", a.span()));
                }
                args.add(new Word(parts, a.span()));
            } else if (c.type().equals("file_redirect")) {
                continue;
            } else {
                pieces.add(c);
            }
        }
        args.addAll(words.words(pieces));
        List<Redirect> redirects = new ArrayList<>();
        for (int i = 0; i < n.childCount(); i++) {
            if (n.child(i).type().equals("file_redirect")) {
                redirects.add(redirect(n.child(i)));
            }
        }
        return new Command.Simple(List.of(), args, redirects, new Span(n.start(), n.end()));
    }

    private Assignment assignment(CstNode n) {
        String name = null;
        Word subscript = null;
        boolean append = false;
        List<CstNode> valuePieces = new ArrayList<>();
        List<Word> array = null;
        for (int i = 0; i < n.childCount(); i++) {
            CstNode c = n.child(i);
            String field = n.fieldName(i);
            if ("name".equals(field)) {
                if (c.type().equals("subscript") && c.childCount() > 0) {
                    name = slice(c.child(0));
                    subscript = words.subscriptIndex(c);
                } else {
                    name = slice(c);
                }
            } else if (c.type().equals("+=")) {
                append = true;
            } else if (c.type().equals("=")) {
                continue;
            } else if (c.type().equals("array")) {
                array = new ArrayList<>();
                List<CstNode> elements = new ArrayList<>();
                for (int j = 0; j < c.childCount(); j++) {
                    if (c.child(j).isNamed()) {
                        elements.add(c.child(j));
                    }
                }
                array.addAll(words.words(elements));
            } else {
                valuePieces.add(c);
            }
        }
        Span span = new Span(n.start(), n.end());
        Word value = valuePieces.isEmpty() ? new Word(List.of(), new Span(n.end(), n.end())) : words.words(valuePieces).getFirst();
        return new Assignment(name == null ? "" : name, subscript, append, value, array, span);
    }

    private Command pipeline(CstNode n) {
        List<Command> stages = new ArrayList<>();
        for (int i = 0; i < n.childCount(); i++) {
            statement(n.child(i), stages);
        }
        return new Command.Pipeline(stages, new Span(n.start(), n.end()));
    }

    /**
     * A statement with redirections. tree-sitter wraps a whole list or pipeline ({@code a && b > f})
     * although bash applies the redirection to the last command only; a heredoc may also carry the
     * rest of its line ({@code cat <<EOF | sh}) inside its redirect node.
     */
    private Command redirected(CstNode n) {
        Command body = null;
        List<Redirect> redirects = new ArrayList<>();
        List<CstNode> continuations = new ArrayList<>();
        for (int i = 0; i < n.childCount(); i++) {
            CstNode c = n.child(i);
            if ("body".equals(n.fieldName(i))) {
                List<Command> items = new ArrayList<>();
                statement(c, items);
                body = items.size() == 1 ? items.getFirst() : new Command.Sequence(items, new Span(c.start(), c.end()));
            } else if (c.type().equals("file_redirect") || c.type().equals("herestring_redirect")
                    || c.type().equals("heredoc_redirect")) {
                redirects.add(redirect(c));
                if (c.type().equals("heredoc_redirect")) {
                    for (int j = 0; j < c.childCount(); j++) {
                        CstNode k = c.child(j);
                        if (k.type().equals("pipeline") || k.type().equals("list") || k.type().equals("command")
                                || k.type().equals("&&") || k.type().equals("||") || k.type().equals(";")
                                || k.type().equals("&")) {
                            continuations.add(k);
                        }
                    }
                }
            } else if (c.isError() || c.isMissing()) {
                errors.add(new Span(c.start(), c.end()));
            }
        }
        Span span = new Span(n.start(), n.end());
        Command result = body == null
                ? new Command.Simple(List.of(), List.of(), redirects, span)
                : attach(body, redirects, span);
        for (CstNode k : continuations) {
            if (k.type().equals("pipeline")) {
                List<Command> stages = new ArrayList<>();
                stages.add(result);
                for (int i = 0; i < k.childCount(); i++) {
                    statement(k.child(i), stages);
                }
                result = new Command.Pipeline(stages, span);
            } else if (k.isNamed()) {
                List<Command> items = new ArrayList<>();
                items.add(result);
                statement(k, items);
                result = new Command.Sequence(items, span);
            } else if (k.type().equals("&")) {
                result = new Command.Background(result, span);
            }
        }
        return result;
    }

    private static Command attach(Command body, List<Redirect> redirects, Span span) {
        return switch (body) {
            case Command.Simple s -> {
                List<Redirect> all = new ArrayList<>(s.redirects());
                all.addAll(redirects);
                yield new Command.Simple(s.assignments(), s.words(), all, new Span(s.span().start(), span.end()));
            }
            case Command.Sequence seq when !seq.items().isEmpty() -> {
                List<Command> items = new ArrayList<>(seq.items());
                items.set(items.size() - 1, attach(items.getLast(), redirects, span));
                yield new Command.Sequence(items, seq.span());
            }
            case Command.Pipeline p when !p.stages().isEmpty() -> {
                List<Command> stages = new ArrayList<>(p.stages());
                stages.set(stages.size() - 1, attach(stages.getLast(), redirects, span));
                yield new Command.Pipeline(stages, p.span());
            }
            default -> new Command.Redirected(body, redirects, span);
        };
    }

    private Redirect redirect(CstNode n) {
        return redirects.redirect(n);
    }

    private Command function(CstNode n) {
        String name = null;
        Command body = null;
        List<Redirect> redirects = new ArrayList<>();
        for (int i = 0; i < n.childCount(); i++) {
            CstNode c = n.child(i);
            String field = n.fieldName(i);
            if ("name".equals(field)) {
                name = words.word(c).literal();
            } else if ("body".equals(field)) {
                List<Command> items = new ArrayList<>();
                statement(c, items);
                body = items.size() == 1 ? items.getFirst() : new Command.Sequence(items, new Span(c.start(), c.end()));
            } else if (c.type().equals("file_redirect")) {
                redirects.add(redirect(c));
            } else if (c.isError() || c.isMissing()) {
                errors.add(new Span(c.start(), c.end()));
            }
        }
        Span span = new Span(n.start(), n.end());
        if (body == null) {
            body = new Command.Opaque("function without a body", span);
        }
        if (!redirects.isEmpty()) {
            body = new Command.Redirected(body, redirects, span);
        }
        return new Command.FunctionDef(name == null ? "" : name, body, span);
    }

    /** if, while, until, for, select, case, [[ ]], (( )): expanded words and possible bodies. */
    private Command compound(CstNode n) {
        String kind = n.childCount() > 0 ? n.child(0).type() : n.type();
        String variable = null;
        List<Word> ws = new ArrayList<>();
        List<Command> bodies = new ArrayList<>();
        collectCompound(n, ws, bodies);
        for (int i = 0; i < n.childCount(); i++) {
            if ("variable".equals(n.fieldName(i))) {
                variable = slice(n.child(i));
            }
        }
        return new Command.Compound(kind, variable, ws, bodies, new Span(n.start(), n.end()));
    }

    private void collectCompound(CstNode n, List<Word> ws, List<Command> bodies) {
        if (n.type().equals("c_style_for_statement") || n.type().equals("test_command") && n.childCount() > 0
                && n.child(0).type().equals("((")) {
            arithmeticCompound(n, ws, bodies);
            return;
        }
        if (n.type().equals("test_command")) {
            testWords(n, ws);
            return;
        }
        for (int i = 0; i < n.childCount(); i++) {
            CstNode c = n.child(i);
            String field = n.fieldName(i);
            String type = c.type();
            if ("variable".equals(field)) {
                continue;
            }
            if (type.equals("do_group") || type.equals("elif_clause") || type.equals("else_clause")
                    || type.equals("case_item")) {
                collectCompound(c, ws, bodies);
            } else if ("value".equals(field) && WordConverter.isWordNode(c)) {
                ws.add(words.word(c));
            } else if (c.isNamed() && !WordConverter.isWordNode(c)) {
                List<Command> items = new ArrayList<>();
                statement(c, items);
                bodies.addAll(items);
            } else if (c.isNamed()) {
                ws.add(words.word(c));
            } else if (c.isError() || c.isMissing()) {
                errors.add(new Span(c.start(), c.end()));
            }
        }
    }

    /** {@code (( expr ))} and {@code for (( a; b; c ))}: the expression between the parentheses, and the body. */
    private void arithmeticCompound(CstNode n, List<Word> ws, List<Command> bodies) {
        int from = -1;
        int to = -1;
        for (int i = 0; i < n.childCount(); i++) {
            CstNode c = n.child(i);
            if (c.type().equals("((") && from < 0) {
                from = c.end();
            } else if (c.type().equals("))") && to < 0) {
                to = c.start();
            } else if (c.type().equals("do_group")) {
                collectCompound(c, new ArrayList<>(), bodies);
            } else if (c.type().equals("compound_statement")) {
                statement(c, bodies);
            } else if (c.isError() || c.isMissing()) {
                errors.add(new Span(c.start(), c.end()));
            }
        }
        if (from < 0 || to < from) {
            errors.add(new Span(n.start(), n.end()));
            return;
        }
        ws.add(words.arithmeticWord(n, from, to));
    }

    private static final java.util.Set<String> ARITHMETIC_TESTS = java.util.Set.of("-eq", "-ne", "-lt", "-le", "-gt", "-ge");

    /**
     * The words of {@code [[ ... ]]}: operands of {@code -eq} and the like are arithmetic, and the
     * operand of {@code -v} names a variable whose subscript is arithmetic.
     */
    private void testWords(CstNode n, List<Word> ws) {
        for (int i = 0; i < n.childCount(); i++) {
            CstNode c = n.child(i);
            String op = operator(c);
            if (c.type().equals("binary_expression") && ARITHMETIC_TESTS.contains(op)) {
                for (int j = 0; j < c.childCount(); j++) {
                    CstNode side = c.child(j);
                    if (side.isNamed() && !"operator".equals(c.fieldName(j))) {
                        ws.add(words.arithmeticWord(side, side.start(), side.end()));
                    }
                }
            } else if (c.type().equals("unary_expression") && ("-v".equals(op) || "-R".equals(op))) {
                for (int j = 0; j < c.childCount(); j++) {
                    CstNode operand = c.child(j);
                    if (operand.isNamed() && !"operator".equals(c.fieldName(j))) {
                        ws.add(variableReference(operand));
                    }
                }
            } else if (WordConverter.isWordNode(c)) {
                ws.add(words.word(c));
            } else {
                if (c.isError() || c.isMissing()) {
                    errors.add(new Span(c.start(), c.end()));
                }
                testWords(c, ws);
            }
        }
    }

    private String operator(CstNode n) {
        for (int i = 0; i < n.childCount(); i++) {
            if ("operator".equals(n.fieldName(i))) {
                return slice(n.child(i));
            }
        }
        return null;
    }

    /** The operand of {@code -v}: a name, and a subscript that is evaluated ({@code a[$(id)]} runs id). */
    private Word variableReference(CstNode operand) {
        Span span = new Span(operand.start(), operand.end());
        return new Word(List.of(new Part.VariableName(words.word(operand).parts(), span)), span);
    }

    private static List<CstNode> named(CstNode n) {
        List<CstNode> out = new ArrayList<>();
        for (int i = 0; i < n.childCount(); i++) {
            if (n.child(i).isNamed()) {
                out.add(n.child(i));
            }
        }
        return out;
    }

    private String slice(CstNode n) {
        return text.substring(n.start(), n.end());
    }
}
