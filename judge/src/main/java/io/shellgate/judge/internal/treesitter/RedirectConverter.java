package io.shellgate.judge.internal.treesitter;

import io.shellgate.judge.Span;
import io.shellgate.judge.internal.syntax.Part;
import io.shellgate.judge.internal.syntax.Redirect;
import io.shellgate.judge.internal.syntax.Word;
import java.util.ArrayList;
import java.util.List;

/** Redirections and heredocs: operator, descriptor, target word, and a heredoc's body as bash expands it. */
final class RedirectConverter {

    private final String text;
    private final WordConverter words;
    private final List<Span> errors;

    RedirectConverter(String text, WordConverter words, List<Span> errors) {
        this.text = text;
        this.words = words;
        this.errors = errors;
    }

    Redirect redirect(CstNode n) {
        Span span = new Span(n.start(), n.end());
        int fd = -1;
        String op = null;
        List<CstNode> target = new ArrayList<>();
        if (n.type().equals("heredoc_redirect")) {
            return heredoc(n);
        }
        for (int i = 0; i < n.childCount(); i++) {
            CstNode c = n.child(i);
            String field = n.fieldName(i);
            if (c.type().equals("file_descriptor") && "descriptor".equals(field)) {
                fd = parseFd(slice(c));
            } else if ("destination".equals(field) || (op != null && WordConverter.isWordNode(c))) {
                target.add(c);
            } else if (!c.isNamed() && op == null) {
                op = c.type();
            } else if (c.isError() || c.isMissing()) {
                errors.add(new Span(c.start(), c.end()));
            } else if (WordConverter.isWordNode(c)) {
                target.add(c);
            }
        }
        List<Word> ws = words.words(target);
        if (ws.size() > 1) {
            errors.add(span);
        }
        return new Redirect(op == null ? "?" : op, fd, ws.isEmpty() ? null : ws.getFirst(), null, span);
    }

    private Redirect heredoc(CstNode n) {
        String op = "<<";
        String delimiter = "";
        Word body = null;
        for (int i = 0; i < n.childCount(); i++) {
            CstNode c = n.child(i);
            switch (c.type()) {
                case "<<", "<<-" -> op = c.type();
                case "heredoc_start" -> delimiter = slice(c);
                case "heredoc_body" -> body = heredocBody(c, !quotedDelimiter(delimiter));
                default -> {
                    if (c.isError() || c.isMissing()) {
                        errors.add(new Span(c.start(), c.end()));
                    }
                }
            }
        }
        boolean expands = !quotedDelimiter(delimiter);
        if (body == null) {
            body = new Word(List.of(), new Span(n.end(), n.end()));
        }
        return new Redirect(op, -1, null, new Redirect.Heredoc(expands, body), new Span(n.start(), n.end()));
    }

    private static boolean quotedDelimiter(String delimiter) {
        return delimiter.indexOf('\'') >= 0 || delimiter.indexOf('"') >= 0 || delimiter.indexOf('\\') >= 0;
    }

    private Word heredocBody(CstNode n, boolean expands) {
        Span span = new Span(n.start(), n.end());
        if (!expands) {
            return new Word(List.of(new Part.Literal(slice(n), true, span)), span);
        }
        List<Part> parts = new ArrayList<>();
        int pos = n.start();
        for (int i = 0; i < n.childCount(); i++) {
            CstNode c = n.child(i);
            if (c.type().equals("heredoc_content") || !c.isNamed()) {
                continue;
            }
            if (c.start() > pos) {
                parts.add(new Part.Literal(unescapeHeredoc(text.substring(pos, c.start())), true, new Span(pos, c.start())));
            }
            parts.addAll(words.word(c).parts());
            pos = Math.max(pos, c.end());
        }
        if (pos < n.end()) {
            parts.add(new Part.Literal(unescapeHeredoc(text.substring(pos, n.end())), true, new Span(pos, n.end())));
        }
        return new Word(parts, span);
    }

    /** In an expanding heredoc a backslash escapes only $ ` \ and newline. */
    private static String unescapeHeredoc(String s) {
        StringBuilder sb = new StringBuilder(s.length());
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '\\' && i + 1 < s.length() && "$`\\\n".indexOf(s.charAt(i + 1)) >= 0) {
                if (s.charAt(i + 1) != '\n') {
                    sb.append(s.charAt(i + 1));
                }
                i++;
            } else {
                sb.append(c);
            }
        }
        return sb.toString();
    }

    private static int parseFd(String s) {
        try {
            return Integer.parseInt(s);
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    private String slice(CstNode n) {
        return text.substring(n.start(), n.end());
    }
}
