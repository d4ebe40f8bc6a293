package io.shellgate.judge.internal.treesitter;

import io.shellgate.judge.Span;
import io.shellgate.judge.internal.syntax.Part;
import io.shellgate.judge.internal.syntax.Word;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Text the shell expands and then evaluates (arithmetic, subscripts), as the judge needs it: the
 * expansions in it as parts, and the text between them as written. tree-sitter parses arithmetic
 * into operators and operands; the judge reads the expanded text with the shell's own rules instead.
 */
final class ExpressionWords {

    private static final Set<String> EXPANSIONS = Set.of("simple_expansion", "expansion", "command_substitution",
            "process_substitution", "arithmetic_expansion", "string", "raw_string", "ansi_c_string", "translated_string");

    private final WordConverter words;
    private final String text;
    private final List<Span> errors;

    ExpressionWords(WordConverter words, String text, List<Span> errors) {
        this.words = words;
        this.text = text;
        this.errors = errors;
    }

    /** The subscript of {@code a[i]} as written: expanded, and evaluated as arithmetic for an indexed array. */
    Word subscriptIndex(CstNode subscript) {
        for (int i = 0; i < subscript.childCount(); i++) {
            if ("index".equals(subscript.fieldName(i))) {
                CstNode index = subscript.child(i);
                return new Word(expression(index, index.start(), index.end()), new Span(index.start(), index.end()));
            }
        }
        int open = text.indexOf('[', subscript.start());
        int close = text.lastIndexOf(']', subscript.end() - 1);
        if (open < 0 || close <= open || close >= subscript.end()) {
            Span span = new Span(subscript.start(), subscript.end());
            return new Word(List.of(new Part.Opaque("a subscript shellgate cannot read", span)), span);
        }
        return new Word(expression(subscript, open + 1, close), new Span(open + 1, close));
    }

    /** {@code $((...))}, {@code $[...]} or a bare {@code ((...))}: the expression between the delimiters. */
    Part.Arithmetic arithmetic(CstNode node) {
        int from = node.start();
        int to = node.end();
        if (text.startsWith("$((", from) && text.startsWith("))", to - 2)) {
            from += 3;
            to -= 2;
        } else if (text.startsWith("((", from) && text.startsWith("))", to - 2)) {
            from += 2;
            to -= 2;
        } else if (text.startsWith("$[", from) && text.startsWith("]", to - 1)) {
            from += 2;
            to -= 1;
        }
        return new Part.Arithmetic(inside(node, from, to), new Span(node.start(), node.end()));
    }

    /** A word that is the arithmetic expression {@code text[from, to)} of {@code node}. */
    Word arithmeticWord(CstNode node, int from, int to) {
        Span span = new Span(from, to);
        return new Word(List.of(new Part.Arithmetic(expression(node, from, to), span)), span);
    }

    /**
     * The text {@code [from, to)} inside {@code node} as the shell expands it before evaluating it
     * (arithmetic, subscripts): the expansions in it, and the text between them as it is written.
     */
    List<Part> expression(CstNode node, int from, int to) {
        if (!EXPANSIONS.contains(node.type()) || node.start() < from || node.end() > to) {
            return inside(node, from, to);
        }
        // the expression is one expansion: $x in [[ $x -eq 1 ]]
        List<Part> out = new ArrayList<>();
        if (node.start() > from) {
            out.add(new Part.Literal(text.substring(from, node.start()), false, new Span(from, node.start())));
        }
        words.parts(node, false, out);
        int pos = node.end();
        if (pos < to) {
            out.add(new Part.Literal(text.substring(pos, to), false, new Span(pos, to)));
        }
        return WordConverter.merge(out);
    }

    /** The same for text inside {@code node}, whose children are the expansions and the text between them. */
    private List<Part> inside(CstNode node, int from, int to) {
        List<Part> out = new ArrayList<>();
        int pos = collectExpression(node, from, to, out, from);
        if (pos < to) {
            out.add(new Part.Literal(text.substring(pos, to), false, new Span(pos, to)));
        }
        return WordConverter.merge(out);
    }

    private int collectExpression(CstNode node, int from, int to, List<Part> out, int pos) {
        for (int i = 0; i < node.childCount(); i++) {
            CstNode c = node.child(i);
            if (c.end() <= from || c.start() >= to || c.end() <= pos) {
                continue;
            }
            if (c.isError() || c.isMissing()) {
                errors.add(new Span(c.start(), c.end()));
            }
            if (EXPANSIONS.contains(c.type())) {
                if (c.start() < pos || c.end() > to) {
                    // an expansion that straddles the edge of the expression: not what the shell evaluates
                    out.add(new Part.Opaque("an expression shellgate cannot read", new Span(c.start(), c.end())));
                } else {
                    if (c.start() > pos) {
                        out.add(new Part.Literal(text.substring(pos, c.start()), false, new Span(pos, c.start())));
                    }
                    words.parts(c, false, out);
                }
                pos = Math.max(pos, c.end());
            } else {
                pos = collectExpression(c, from, to, out, pos);
            }
        }
        return pos;
    }

    private String slice(CstNode node) {
        return text.substring(node.start(), node.end());
    }
}
