package io.shellgate.judge.internal.cmd;

import io.shellgate.judge.Span;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Builds cmd's structure from its tokens: lines and {@code & && ||} sequences, pipelines,
 * parenthesised blocks, {@code if ... else}, {@code for ... in (...) do}. It throws
 * {@link CmdSyntaxException} on what it does not understand and past its nesting budget.
 */
final class CmdParser {

    private static final int MAX_NESTING = 64;
    private static final Set<String> COMPARISONS = Set.of("equ", "neq", "lss", "leq", "gtr", "geq");

    private final String text;
    private final List<CmdToken> tokens;
    private int pos;
    private int nesting;

    private CmdParser(String text, List<CmdToken> tokens) {
        this.text = text;
        this.tokens = tokens;
    }

    static CmdAst.Node parse(String text, List<CmdToken> tokens) {
        CmdParser p = new CmdParser(text, tokens);
        CmdAst.Node n = p.sequence(false);
        if (p.pos < tokens.size()) {
            throw new CmdSyntaxException("unexpected " + tokens.get(p.pos).text(), tokens.get(p.pos).span());
        }
        return n;
    }

    private CmdToken peek() {
        return pos < tokens.size() ? tokens.get(pos) : null;
    }

    private boolean at(CmdToken.Kind k) {
        return pos < tokens.size() && tokens.get(pos).is(k);
    }

    private CmdSyntaxException error(String message) {
        CmdToken t = peek();
        return new CmdSyntaxException(message, t == null ? new Span(text.length(), text.length()) : t.span());
    }

    private CmdAst.Node sequence(boolean inBlock) {
        if (++nesting > MAX_NESTING) {
            throw error("blocks are nested more than " + MAX_NESTING + " deep");
        }
        int start = pos;
        List<CmdAst.Node> items = new ArrayList<>();
        while (pos < tokens.size()) {
            CmdToken t = peek();
            if (t.is(CmdToken.Kind.NEWLINE) || t.is(CmdToken.Kind.AND) || t.is(CmdToken.Kind.AND_IF) || t.is(CmdToken.Kind.OR_IF)) {
                pos++;
                continue;
            }
            if (t.is(CmdToken.Kind.CLOSE) && inBlock) {
                break;
            }
            items.add(pipeline(inBlock));
        }
        nesting--;
        return new CmdAst.Sequence(items, span(start));
    }

    private Span span(int startToken) {
        int s = startToken < tokens.size() ? tokens.get(startToken).span().start() : text.length();
        int e = pos > 0 && pos - 1 < tokens.size() ? tokens.get(pos - 1).span().end() : s;
        return new Span(Math.min(s, e), Math.max(s, e));
    }

    private CmdAst.Node pipeline(boolean inBlock) {
        int start = pos;
        List<CmdAst.Node> stages = new ArrayList<>();
        stages.add(command(inBlock));
        while (at(CmdToken.Kind.PIPE)) {
            pos++;
            stages.add(command(inBlock));
        }
        return stages.size() == 1 ? stages.getFirst() : new CmdAst.Pipeline(stages, span(start));
    }

    CmdAst.Node command(boolean inBlock) {
        int start = pos;
        CmdToken first = peek();
        if (first == null || !first.is(CmdToken.Kind.WORD) && !first.is(CmdToken.Kind.OPEN) && !first.is(CmdToken.Kind.REDIRECT)) {
            throw error("a command was expected");
        }
        if (first.is(CmdToken.Kind.OPEN)) {
            pos++;
            CmdAst.Node body = sequence(true);
            if (!at(CmdToken.Kind.CLOSE)) {
                throw error("a ( block is not closed");
            }
            pos++;
            List<CmdToken> redirects = new ArrayList<>();
            while (at(CmdToken.Kind.REDIRECT)) {
                redirects.add(tokens.get(pos++));
            }
            return new CmdAst.Group(body, redirects, span(start));
        }
        String name = first.known() && !first.quoted() ? first.text().toLowerCase(Locale.ROOT) : "";
        if (name.startsWith("@")) {
            name = name.substring(1);
        }
        if (name.equals("if")) {
            return ifCommand(start, inBlock);
        }
        if (name.equals("for")) {
            return forCommand(start, inBlock);
        }
        return simple(start, inBlock);
    }

    private CmdAst.Node simple(int start, boolean inBlock) {
        List<CmdToken> words = new ArrayList<>();
        List<CmdToken> redirects = new ArrayList<>();
        int restStart = -1;
        while (pos < tokens.size()) {
            CmdToken t = peek();
            if (t.is(CmdToken.Kind.WORD) || t.is(CmdToken.Kind.OPEN) || t.is(CmdToken.Kind.CLOSE) && !inBlock) {
                if (words.size() == 1 && restStart < 0) {
                    restStart = t.span().start();
                }
                words.add(t.is(CmdToken.Kind.WORD) ? t : new CmdToken(CmdToken.Kind.WORD, t.text(), true, false, t.span()));
            } else if (t.is(CmdToken.Kind.REDIRECT)) {
                redirects.add(t);
            } else {
                break;
            }
            pos++;
        }
        int end = pos > 0 ? tokens.get(pos - 1).span().end() : 0;
        String rest = restStart < 0 ? "" : text.substring(restStart, Math.max(restStart, end));
        return new CmdAst.Simple(words, redirects, rest, span(start));
    }

    private CmdAst.Node ifCommand(int start, boolean inBlock) {
        pos++;
        List<CmdToken> condition = new ArrayList<>();
        while (peek() != null && (peek().isWord("/i") || peek().isWord("not"))) {
            condition.add(tokens.get(pos++));
        }
        CmdToken kind = peek();
        if (kind == null || !kind.is(CmdToken.Kind.WORD)) {
            throw error("if needs a condition");
        }
        int operands = kind.isWord("exist") || kind.isWord("defined") || kind.isWord("errorlevel") || kind.isWord("cmdextversion")
                ? 2 : pos + 1 < tokens.size() && tokens.get(pos + 1).known()
                        && COMPARISONS.contains(tokens.get(pos + 1).text().toLowerCase(Locale.ROOT)) ? 3 : 2;
        for (int i = 0; i < operands; i++) {
            if (!at(CmdToken.Kind.WORD)) {
                throw error("if needs a condition");
            }
            condition.add(tokens.get(pos++));
        }
        CmdAst.Node then = command(inBlock);
        CmdAst.Node otherwise = null;
        if (peek() != null && peek().isWord("else")) {
            pos++;
            otherwise = command(inBlock);
        }
        return new CmdAst.If(condition, then, otherwise, span(start));
    }

    private CmdAst.Node forCommand(int start, boolean inBlock) {
        pos++;
        List<String> options = new ArrayList<>();
        while (at(CmdToken.Kind.WORD) && !peek().text().startsWith("%")) {
            options.add(peek().text());
            pos++;
        }
        if (!at(CmdToken.Kind.WORD)) {
            throw error("for needs a %variable");
        }
        String variable = peek().text();
        pos++;
        if (peek() == null || !peek().isWord("in") || pos + 1 >= tokens.size() || !tokens.get(pos + 1).is(CmdToken.Kind.OPEN)) {
            throw error("for needs in ( set )");
        }
        pos += 2;
        int setStart = tokens.get(pos - 1).span().end();
        int depth = 0;
        while (pos < tokens.size() && !(tokens.get(pos).is(CmdToken.Kind.CLOSE) && depth == 0)) {
            depth += tokens.get(pos).is(CmdToken.Kind.OPEN) ? 1 : tokens.get(pos).is(CmdToken.Kind.CLOSE) ? -1 : 0;
            pos++;
        }
        if (pos >= tokens.size()) {
            throw error("a for ( set ) is not closed");
        }
        int setEnd = tokens.get(pos).span().start();
        pos++;
        if (peek() == null || !peek().isWord("do")) {
            throw error("for needs do");
        }
        pos++;
        CmdAst.Node body = command(inBlock);
        return new CmdAst.For(options, variable, text.substring(setStart, setEnd), new Span(setStart, setEnd), body, span(start));
    }
}
