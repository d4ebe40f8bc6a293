package io.shellgate.judge.internal.treesitter;

import io.shellgate.judge.Span;
import io.shellgate.judge.internal.syntax.Part;
import io.shellgate.judge.internal.syntax.Script;
import io.shellgate.judge.internal.syntax.Word;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * Turns tree-sitter word nodes into {@link Word}s the way bash reads them: quote removal,
 * backslash escapes, {@code $'...'} decoding, line continuations, expansions.
 */
final class WordConverter {

    private final String text;
    private final Function<CstNode, Script> scripts;
    private final List<Span> errors;

    WordConverter(String text, Function<CstNode, Script> scripts, List<Span> errors) {
        this.text = text;
        this.scripts = scripts;
        this.errors = errors;
    }

    /** Whether a node can be (part of) a word. */
    static boolean isWordNode(CstNode n) {
        return switch (n.type()) {
            case "word", "number", "raw_string", "string", "ansi_c_string", "translated_string", "simple_expansion",
                 "expansion", "command_substitution", "process_substitution", "arithmetic_expansion", "concatenation",
                 "brace_expression", "extglob_pattern", "regex", "variable_name", "special_variable_name",
                 "test_operator", "$", "file_descriptor" -> true;
            default -> false;
        };
    }

    /** Joins adjacent word pieces into words: {@code a"b"$c} is one word; a line continuation joins too. */
    List<Word> words(List<CstNode> pieces) {
        List<Word> words = new ArrayList<>();
        List<Part> current = new ArrayList<>();
        int start = -1;
        int end = -1;
        for (int i = 0; i < pieces.size(); i++) {
            CstNode piece = pieces.get(i);
            // $"..." is a translated string: the $ only marks it.
            if (piece.type().equals("$") && i + 1 < pieces.size() && pieces.get(i + 1).start() == piece.end()
                    && pieces.get(i + 1).type().equals("string")) {
                if (start < 0 || !joins(end, piece.start())) {
                    flush(words, current, start, end);
                    start = piece.start();
                }
                end = piece.end();
                continue;
            }
            if (start >= 0 && !joins(end, piece.start())) {
                flush(words, current, start, end);
                current = new ArrayList<>();
                start = -1;
            }
            if (start < 0) {
                start = piece.start();
            }
            parts(piece, false, current);
            end = piece.end();
        }
        flush(words, current, start, end);
        return words;
    }

    Word word(CstNode node) {
        List<Part> parts = new ArrayList<>();
        parts(node, false, parts);
        return new Word(merge(parts), new Span(node.start(), node.end()));
    }

    private void flush(List<Word> words, List<Part> parts, int start, int end) {
        if (start >= 0) {
            words.add(new Word(merge(new ArrayList<>(parts)), new Span(start, end)));
            parts.clear();
        }
    }

    /** Two pieces belong to one word when nothing, or only line continuations, separate them. */
    private boolean joins(int end, int start) {
        if (end == start) {
            return true;
        }
        if (start < end || (start - end) % 2 != 0) {
            return false;
        }
        for (int i = end; i < start; i += 2) {
            if (text.charAt(i) != '\\' || text.charAt(i + 1) != '\n') {
                return false;
            }
        }
        return true;
    }

    private void parts(CstNode node, boolean quoted, List<Part> out) {
        Span span = new Span(node.start(), node.end());
        switch (node.type()) {
            case "word", "number", "brace_expression", "extglob_pattern", "regex", "variable_name",
                 "special_variable_name", "test_operator", "$", "file_descriptor" -> unquoted(node.start(), node.end(), out);
            case "raw_string" -> out.add(new Part.Literal(inner(node, 1, 1), true, span));
            case "ansi_c_string" -> out.add(new Part.Literal(AnsiC.decode(inner(node, 2, 1)), true, span));
            case "string", "translated_string" -> doubleQuoted(node, out);
            case "simple_expansion" -> out.add(simpleExpansion(node, quoted));
            case "expansion" -> out.add(expansion(node, quoted));
            case "command_substitution" -> {
                if (text.charAt(node.start()) == '`' && text.substring(node.start() + 1, Math.max(node.start() + 1, node.end() - 1)).indexOf('\\') >= 0) {
                    // inside backquotes bash removes backslashes before \`, \$ and \\ and parses again:
                    // nested substitutions tree-sitter reads as text
                    out.add(new Part.Opaque("backquotes with backslashes inside are parsed twice by bash", span));
                } else {
                    out.add(new Part.CommandSub(scripts.apply(node), quoted, span));
                }
            }
            case "process_substitution" -> out.add(new Part.ProcessSub(scripts.apply(node),
                    text.startsWith("<(", node.start()), span));
            case "arithmetic_expansion" -> out.add(new Part.Arithmetic(nestedWords(node), span));
            case "concatenation" -> {
                for (int i = 0; i < node.childCount(); i++) {
                    parts(node.child(i), quoted, out);
                }
            }
            default -> {
                if (node.isError() || node.isMissing()) {
                    errors.add(span);
                }
                out.add(new Part.Opaque("unexpected " + node.type() + " in a word", span));
            }
        }
    }

    /** Unquoted text: a backslash quotes the next character, backslash-newline disappears. */
    private void unquoted(int start, int end, List<Part> out) {
        StringBuilder plain = new StringBuilder();
        int plainStart = start;
        for (int i = start; i < end; i++) {
            char c = text.charAt(i);
            if (c == '\\' && i + 1 < end) {
                if (!plain.isEmpty()) {
                    out.add(new Part.Literal(plain.toString(), false, new Span(plainStart, i)));
                    plain.setLength(0);
                }
                char next = text.charAt(i + 1);
                if (next != '\n') {
                    out.add(new Part.Literal(String.valueOf(next), true, new Span(i, i + 2)));
                }
                i++;
                plainStart = i + 1;
            } else {
                if (plain.isEmpty()) {
                    plainStart = i;
                }
                plain.append(c);
            }
        }
        if (!plain.isEmpty()) {
            out.add(new Part.Literal(plain.toString(), false, new Span(plainStart, end)));
        }
    }

    /** Double quotes: text between the expansions, where a backslash escapes only $ ` " \ and newline. */
    private void doubleQuoted(CstNode node, List<Part> out) {
        int open = text.indexOf('"', node.start());
        int pos = open < 0 ? node.start() : open + 1;
        int close = text.charAt(node.end() - 1) == '"' && node.end() - 1 > open ? node.end() - 1 : node.end();
        for (int i = 0; i < node.childCount(); i++) {
            CstNode child = node.child(i);
            if (!child.isNamed() || child.type().equals("string_content")) {
                continue;
            }
            if (child.start() > pos) {
                quotedText(pos, Math.min(child.start(), close), out);
            }
            parts(child, true, out);
            pos = Math.max(pos, child.end());
        }
        if (pos < close) {
            quotedText(pos, close, out);
        }
    }

    private void quotedText(int start, int end, List<Part> out) {
        StringBuilder sb = new StringBuilder();
        for (int i = start; i < end; i++) {
            char c = text.charAt(i);
            if (c == '\\' && i + 1 < end && "$`\"\\\n".indexOf(text.charAt(i + 1)) >= 0) {
                if (text.charAt(i + 1) != '\n') {
                    sb.append(text.charAt(i + 1));
                }
                i++;
            } else {
                sb.append(c);
            }
        }
        if (!sb.isEmpty()) {
            out.add(new Part.Literal(sb.toString(), true, new Span(start, end)));
        }
    }

    private Part simpleExpansion(CstNode node, boolean quoted) {
        for (int i = 0; i < node.childCount(); i++) {
            CstNode c = node.child(i);
            if (c.type().equals("variable_name") || c.type().equals("special_variable_name")) {
                return new Part.Param(slice(c), "", List.of(), quoted, new Span(node.start(), node.end()));
            }
        }
        return new Part.Opaque("unrecognised $ expansion", new Span(node.start(), node.end()));
    }

    private Part expansion(CstNode node, boolean quoted) {
        String name = null;
        String operator = "";
        List<Word> operands = new ArrayList<>();
        boolean sawName = false;
        for (int i = 0; i < node.childCount(); i++) {
            CstNode c = node.child(i);
            String type = c.type();
            if (!sawName && (type.equals("variable_name") || type.equals("special_variable_name"))) {
                name = slice(c);
                sawName = true;
            } else if (!sawName && type.equals("subscript")) {
                name = c.childCount() > 0 ? slice(c.child(0)) : slice(c);
                operator = "subscript";
                operands.addAll(nestedWords(c));
                sawName = true;
            } else if (!sawName && (type.equals("#") || type.equals("!"))) {
                operator = type.equals("#") ? "length" : "indirect";
            } else if (type.equals("${") || type.equals("}")) {
                continue;
            } else if (!c.isNamed()) {
                if (type.equals("P") && operator.equals("@")) {
                    // ${x@P} expands x as a prompt string, which runs $(...) and backquotes inside it
                    return new Part.Opaque("${...@P} runs the command substitutions in the variable's value",
                            new Span(node.start(), node.end()));
                }
                if (operator.isEmpty()) {
                    operator = type;
                }
            } else {
                operands.add(word(c));
            }
        }
        if (name == null) {
            return new Part.Opaque("unrecognised ${...} expansion", new Span(node.start(), node.end()));
        }
        return new Part.Param(name, operator, operands, quoted, new Span(node.start(), node.end()));
    }

    /** Every expansion inside an arithmetic or test expression, as words of their own. */
    List<Word> nestedWords(CstNode node) {
        List<Word> out = new ArrayList<>();
        collectNested(node, out);
        return out;
    }

    private void collectNested(CstNode node, List<Word> out) {
        for (int i = 0; i < node.childCount(); i++) {
            CstNode c = node.child(i);
            switch (c.type()) {
                case "simple_expansion", "expansion", "command_substitution", "process_substitution",
                     "arithmetic_expansion", "string", "raw_string", "ansi_c_string", "word", "concatenation",
                     "number", "extglob_pattern", "regex" -> out.add(word(c));
                default -> {
                    if (c.isError() || c.isMissing()) {
                        errors.add(new Span(c.start(), c.end()));
                    }
                    collectNested(c, out);
                }
            }
        }
    }

    private String inner(CstNode node, int prefix, int suffix) {
        int s = node.start() + prefix;
        int e = node.end() - suffix;
        return e >= s ? text.substring(s, e) : "";
    }

    private String slice(CstNode node) {
        return text.substring(node.start(), node.end());
    }

    private static List<Part> merge(List<Part> parts) {
        List<Part> out = new ArrayList<>(parts.size());
        for (Part p : parts) {
            if (!out.isEmpty() && p instanceof Part.Literal l && out.getLast() instanceof Part.Literal prev
                    && prev.quoted() == l.quoted() && prev.span().end() == l.span().start()) {
                out.set(out.size() - 1, new Part.Literal(prev.text() + l.text(), l.quoted(),
                        new Span(prev.span().start(), l.span().end())));
            } else {
                out.add(p);
            }
        }
        return out;
    }
}
