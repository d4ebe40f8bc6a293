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
    private final ExpressionWords expressions;

    WordConverter(String text, Function<CstNode, Script> scripts, List<Span> errors) {
        this.text = text;
        this.scripts = scripts;
        this.errors = errors;
        this.expressions = new ExpressionWords(this, text, errors);
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

    /**
     * Joins adjacent word pieces into words: {@code a"b"$c} is one word. tree-sitter leaves escaped
     * characters at word boundaries ({@code \ a}, {@code "a"\ "b"}, {@code re\<newline>set}) outside
     * every node; bash keeps them in the word, so the gaps between pieces are read here.
     */
    List<Word> words(List<CstNode> pieces) {
        List<Word> words = new ArrayList<>();
        List<Part> current = new ArrayList<>();
        int start = -1;
        int end = -1;
        for (int i = 0; i < pieces.size(); i++) {
            CstNode piece = pieces.get(i);
            // $"..." is a translated string: the $ only marks it.
            boolean translated = piece.type().equals("$") && i + 1 < pieces.size()
                    && pieces.get(i + 1).start() == piece.end() && startsWithString(pieces.get(i + 1));
            int gapStart = start < 0 ? escapedRunBefore(piece.start()) : end;
            Gap gap = gap(gapStart, piece.start());
            if (gap.joins && start >= 0 && gapStart < piece.start() && i > 0 && endsWithSimpleExpansion(pieces.get(i - 1))
                    && nameStart(piece.start())) {
                // $AB\<newline>C is the variable ABC to bash; tree-sitter ends the name at the line break
                current.add(new Part.Opaque("a variable name broken by a line continuation", new Span(gapStart, piece.end())));
                end = piece.end();
                continue;
            }
            if (!gap.joins) {
                if (start >= 0) {
                    current.addAll(gap.suffix);
                    flush(words, current, start, end);
                    start = -1;
                }
                words.addAll(gap.middle);
            }
            if (start < 0) {
                start = gap.prefixStart;
                current.addAll(gap.prefix);
            } else {
                current.addAll(gap.prefix);
            }
            boolean dollarBeforeString = piece.type().equals("word") && i + 1 < pieces.size()
                    && pieces.get(i + 1).start() == piece.end() && startsWithString(pieces.get(i + 1))
                    && piece.end() > piece.start() && text.charAt(piece.end() - 1) == '$'
                    && (piece.end() - 2 < piece.start() || text.charAt(piece.end() - 2) != '\\');
            if (i + 1 < pieces.size() && endsWithLoneDollar(piece) && pieces.get(i + 1).start() == piece.end()
                    && nameStart(pieces.get(i + 1).start())) {
                // tree-sitter sometimes splits $NAME after braces ({p,q}$X): bash expands it
                current.add(new Part.Opaque("a $ expansion tree-sitter did not read", new Span(piece.start(), pieces.get(i + 1).end())));
                end = pieces.get(i + 1).end();
                i++;
                continue;
            }
            if (dollarBeforeString) {
                // a$"t": the $ marks a translated string, it is not text
                unquoted(piece.start(), piece.end() - 1, current);
            } else if (translated) {
                // the $ token may carry text before it (tree-sitter reads "-x$" as one token)
                unquoted(piece.start(), piece.end() - 1, current);
            } else {
                parts(piece, false, current);
            }
            end = piece.end();
        }
        if (start >= 0) {
            Gap trailing = gap(end, escapedRunAfter(end));
            current.addAll(trailing.prefix);
            end = Math.max(end, trailing.end);
        }
        flush(words, current, start, end);
        return words;
    }

    /**
     * The text between two pieces: escaped characters that belong to the word before (suffix),
     * words made only of escapes ({@code \ } between blanks), escaped characters that belong to the
     * word after (prefix), and whether no unescaped blank separates the pieces.
     */
    private record Gap(boolean joins, List<Part> suffix, List<Word> middle, List<Part> prefix, int prefixStart, int end) {}

    private Gap gap(int from, int to) {
        List<Part> suffix = new ArrayList<>();
        List<Word> middle = new ArrayList<>();
        List<Part> run = new ArrayList<>();
        boolean joins = true;
        int runStart = from;
        int i = from;
        while (i < to) {
            char c = text.charAt(i);
            if (c == '\\' && i + 1 < to) {
                char next = text.charAt(i + 1);
                if (run.isEmpty()) {
                    runStart = i;
                }
                if (next != '\n') {
                    run.add(new Part.Literal(String.valueOf(next), true, new Span(i, i + 2)));
                }
                i += 2;
            } else {
                // an unescaped blank separates words
                if (joins) {
                    suffix.addAll(run);
                } else if (!run.isEmpty()) {
                    middle.add(new Word(merge(new ArrayList<>(run)), new Span(runStart, i)));
                }
                run.clear();
                joins = false;
                i++;
            }
        }
        if (joins) {
            return new Gap(true, List.of(), List.of(), run, from, to);
        }
        return new Gap(false, suffix, middle, run, run.isEmpty() ? to : runStart, to);
    }

    private static boolean endsWithSimpleExpansion(CstNode n) {
        return n.type().equals("simple_expansion") || n.type().equals("concatenation") && n.childCount() > 0
                && n.child(n.childCount() - 1).type().equals("simple_expansion");
    }

    private static boolean endsWithLoneDollar(CstNode n) {
        return n.type().equals("$") || n.type().equals("concatenation") && n.childCount() > 0
                && n.child(n.childCount() - 1).type().equals("$");
    }

    private boolean nameStart(int pos) {
        if (pos >= text.length()) {
            return false;
        }
        char c = text.charAt(pos);
        return Character.isLetterOrDigit(c) || c == '_' || "@*#?$!-".indexOf(c) >= 0;
    }

    private static boolean startsWithString(CstNode n) {
        return n.type().equals("string") || n.type().equals("concatenation") && n.childCount() > 0
                && n.child(0).type().equals("string");
    }

    /** The start of the run of backslash escapes that ends at {@code pos}. */
    private int escapedRunBefore(int pos) {
        int p = pos;
        while (p >= 2 && text.charAt(p - 2) == '\\' && (p < 3 || text.charAt(p - 3) != '\\')) {
            p -= 2;
        }
        return p;
    }

    /** The end of the run of backslash escapes that starts at {@code pos}. */
    private int escapedRunAfter(int pos) {
        int p = pos;
        while (p + 1 < text.length() && text.charAt(p) == '\\' && text.charAt(p + 1) != '\n') {
            p += 2;
        }
        return p;
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

    void parts(CstNode node, boolean quoted, List<Part> out) {
        Span span = new Span(node.start(), node.end());
        switch (node.type()) {
            case "word", "number", "brace_expression", "extglob_pattern", "regex", "variable_name",
                 "special_variable_name", "test_operator", "$", "file_descriptor" -> unquoted(node.start(), node.end(), out);
            case "raw_string" -> out.add(new Part.Literal(inner(node, 1, 1), true, span));
            case "ansi_c_string" -> out.add(new Part.Literal(AnsiC.decode(inner(node, 2, 1)), true, span));
            case "string", "translated_string" -> doubleQuoted(node, out);
            case "simple_expansion" -> {
                Part p = simpleExpansion(node, quoted);
                if (p instanceof Part.Param v && v.name().length() > 1 && Character.isDigit(v.name().charAt(0))) {
                    // $5HOME is $5 followed by HOME: only one digit belongs to a positional parameter
                    out.add(new Part.Param(v.name().substring(0, 1), "", List.of(), quoted, span));
                    out.add(new Part.Literal(v.name().substring(1), quoted, span));
                } else {
                    out.add(p);
                }
            }
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
            case "arithmetic_expansion" -> out.add(arithmetic(node));
            case "concatenation" -> {
                for (int i = 0; i < node.childCount(); i++) {
                    CstNode c = node.child(i);
                    boolean beforeString = i + 1 < node.childCount() && node.child(i + 1).type().equals("string")
                            && node.child(i + 1).start() == c.end();
                    if (beforeString && c.type().equals("$")) {
                        // $"..." is a translated string: the $ only marks it
                        unquoted(c.start(), c.end() - 1, out);
                        continue;
                    }
                    if (beforeString && c.type().equals("word") && c.end() > c.start() && text.charAt(c.end() - 1) == '$'
                            && (c.end() - 2 < c.start() || text.charAt(c.end() - 2) != '\\')) {
                        unquoted(c.start(), c.end() - 1, out);
                        continue;
                    }
                    parts(c, quoted, out);
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
        int before = out.size();
        int open = text.indexOf('"', node.start());
        int pos = open < 0 ? node.start() : open + 1;
        int close = text.charAt(node.end() - 1) == '"' && node.end() - 1 > open ? node.end() - 1 : node.end();
        for (int i = 0; i < node.childCount(); i++) {
            CstNode child = node.child(i);
            if (!child.isNamed() || child.type().equals("string_content")) {
                continue;
            }
            // tree-sitter may put blanks before the $ into an expansion's token: they are text
            int real = child.start();
            while (real < child.end() && text.charAt(real) != '$' && text.charAt(real) != '`') {
                real++;
            }
            if (real >= child.end()) {
                real = child.start();
            }
            if (real > pos) {
                quotedText(pos, Math.min(real, close), out);
            }
            parts(child, true, out);
            pos = Math.max(pos, child.end());
        }
        if (pos < close) {
            quotedText(pos, close, out);
        }
        if (out.size() == before) {
            // even "" is a part: it keeps an empty word, and it quotes a ~ before it
            out.add(new Part.Literal("", true, new Span(node.start(), node.end())));
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
        Word subscript = null;
        String operator = "";
        boolean bang = false;
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
                subscript = subscriptIndex(c);
                sawName = true;
            } else if (!sawName && type.equals("#")) {
                operator = "length";
            } else if (!sawName && type.equals("!")) {
                bang = true;
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
            } else if (operator.equals(":")) {
                // ${s:offset:length}: both are arithmetic
                operands.add(arithmeticWord(c, c.start(), c.end()));
            } else if (type.equals("regex") && (slice(c).indexOf('$') >= 0 || slice(c).indexOf('`') >= 0)) {
                // tree-sitter reads the pattern of ${x#…}, ${x%…}, ${x/…} as one leaf, but bash expands
                // the substitutions in it: ${x#$(cmd)} runs cmd
                Span span = new Span(c.start(), c.end());
                operands.add(new Word(List.of(new Part.Opaque("a pattern with expansions in it (" + slice(c)
                        + "), which tree-sitter does not read as bash does", span)), span));
            } else {
                operands.add(word(c));
            }
        }
        if (name == null) {
            return new Part.Opaque("unrecognised ${...} expansion", new Span(node.start(), node.end()));
        }
        if (bang) {
            String index = subscript == null ? null : subscript.literal();
            if (subscript == null && (operator.equals("*") || operator.equals("@"))) {
                operator = "names";
            } else if ("@".equals(index) || "*".equals(index)) {
                operator = "keys";
            } else {
                operator = "indirect";
            }
            operands = List.of();
        }
        return new Part.Param(name, subscript, operator, operands, quoted, new Span(node.start(), node.end()));
    }

    /** The subscript of {@code a[i]} as written: expanded, and evaluated as arithmetic for an indexed array. */
    Word subscriptIndex(CstNode subscript) {
        return expressions.subscriptIndex(subscript);
    }

    /** {@code $((...))}, {@code $[...]} or a bare {@code ((...))}: the expression between the delimiters. */
    Part.Arithmetic arithmetic(CstNode node) {
        return expressions.arithmetic(node);
    }

    /** A word that is the arithmetic expression {@code text[from, to)} of {@code node}. */
    Word arithmeticWord(CstNode node, int from, int to) {
        return expressions.arithmeticWord(node, from, to);
    }

    private String inner(CstNode node, int prefix, int suffix) {
        int s = node.start() + prefix;
        int e = node.end() - suffix;
        return e >= s ? text.substring(s, e) : "";
    }

    private String slice(CstNode node) {
        return text.substring(node.start(), node.end());
    }

    static List<Part> merge(List<Part> parts) {
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
