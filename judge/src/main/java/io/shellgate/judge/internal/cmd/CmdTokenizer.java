package io.shellgate.judge.internal.cmd;

import io.shellgate.judge.Span;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Splits a cmd line into words and operators the way cmd reads it: {@code ^} escapes the next
 * character (and joins lines), double quotes group, whitespace, {@code ,}, {@code ;} and {@code =}
 * separate, {@code & && || | ( )} and redirections are operators. {@code %VAR%} is replaced by
 * its value when the environment has it and the value cannot change how the line splits; any
 * other variable, and {@code !VAR!}, makes its word unknown.
 */
final class CmdTokenizer {

    private static final String SPECIAL = "&|<>()^\"%!,;= \t\r\n";

    private final String text;
    private final Map<String, String> env;
    private final List<CmdToken> out = new ArrayList<>();
    private int pos;

    private CmdTokenizer(String text, Map<String, String> env) {
        this.text = text;
        this.env = env;
    }

    static List<CmdToken> tokenize(String text, Map<String, String> env) {
        CmdTokenizer t = new CmdTokenizer(text, env);
        t.run();
        return t.out;
    }

    private void run() {
        while (pos < text.length()) {
            char c = text.charAt(pos);
            int start = pos;
            if (c == ' ' || c == '\t' || c == ',' || c == ';' || c == '=' || c == '\r' || c == '\u00A0') {
                pos++;
            } else if (c == '\n') {
                pos++;
                out.add(new CmdToken(CmdToken.Kind.NEWLINE, "\n", true, false, new Span(start, pos)));
            } else if (c == '&') {
                boolean twice = peek(1) == '&';
                pos += twice ? 2 : 1;
                out.add(new CmdToken(twice ? CmdToken.Kind.AND_IF : CmdToken.Kind.AND, text.substring(start, pos), true, false,
                        new Span(start, pos)));
            } else if (c == '|') {
                boolean twice = peek(1) == '|';
                pos += twice ? 2 : 1;
                out.add(new CmdToken(twice ? CmdToken.Kind.OR_IF : CmdToken.Kind.PIPE, text.substring(start, pos), true, false,
                        new Span(start, pos)));
            } else if (c == '(' || c == ')') {
                pos++;
                out.add(new CmdToken(c == '(' ? CmdToken.Kind.OPEN : CmdToken.Kind.CLOSE, String.valueOf(c), true, false,
                        new Span(start, pos)));
            } else if (c == '>' || c == '<' || Character.isDigit(c) && (peek(1) == '>' || peek(1) == '<')) {
                redirect();
            } else {
                word();
            }
        }
    }

    private char peek(int ahead) {
        return pos + ahead < text.length() ? text.charAt(pos + ahead) : '\0';
    }

    private void redirect() {
        int start = pos;
        if (Character.isDigit(text.charAt(pos))) {
            pos++;
        }
        pos++;
        if (peek(0) == '>' && text.charAt(pos - 1) == '>') {
            pos++;
        }
        if (peek(0) == '&' && Character.isDigit(peek(1))) {
            pos += 2;
            out.add(new CmdToken(CmdToken.Kind.REDIRECT, text.substring(start, pos), true, false, new Span(start, pos)));
            return;
        }
        String op = text.substring(start, pos);
        while (pos < text.length() && (text.charAt(pos) == ' ' || text.charAt(pos) == '\t')) {
            pos++;
        }
        int before = out.size();
        if (pos < text.length() && "&|()<>\n".indexOf(text.charAt(pos)) < 0) {
            word();
        }
        if (out.size() == before) {
            out.add(new CmdToken(CmdToken.Kind.REDIRECT, op, false, false, new Span(start, pos)));
            return;
        }
        CmdToken target = out.removeLast();
        out.add(new CmdToken(CmdToken.Kind.REDIRECT, op + target.text(), target.known(), target.quoted(),
                new Span(start, target.span().end())));
    }

    private void word() {
        int start = pos;
        StringBuilder sb = new StringBuilder();
        boolean known = true;
        boolean quoted = false;
        boolean inQuotes = false;
        while (pos < text.length()) {
            char c = text.charAt(pos);
            if (c == '"') {
                inQuotes = !inQuotes;
                quoted = true;
                pos++;
                continue;
            }
            if (c == '%' || c == '!') {
                int close = text.indexOf(c, pos + 1);
                String name = close > pos + 1 ? text.substring(pos + 1, close) : "";
                if (!name.isEmpty() && name.chars().noneMatch(ch -> Character.isWhitespace(ch) || ch == '"')) {
                    String value = c == '%' ? value(name) : null;
                    if (value != null) {
                        sb.append(value);
                    } else {
                        known = false;
                        sb.append(c).append(name).append(c);
                    }
                    pos = close + 1;
                    continue;
                }
            }
            if (inQuotes) {
                if (c == '\n') {
                    break;
                }
                sb.append(c);
                pos++;
                continue;
            }
            if (c == '^') {
                if (peek(1) == '\r' && peek(2) == '\n') {
                    pos += 3;
                } else if (peek(1) == '\n') {
                    pos += 2;
                } else if (pos + 1 < text.length()) {
                    sb.append(text.charAt(pos + 1));
                    pos += 2;
                } else {
                    pos++;
                }
                continue;
            }
            if (c == ' ' || c == '\t' || c == ',' || c == ';' || c == '=' || c == '\r' || c == '\n' || c == '&' || c == '|'
                    || c == ')' || c == '>' || c == '<' || c == '\u00A0') {
                break;
            }
            sb.append(c);
            pos++;
        }
        out.add(new CmdToken(CmdToken.Kind.WORD, sb.toString(), known, quoted, new Span(start, pos)));
    }

    /**
     * The command line cmd hands a program: the raw text of its arguments with {@code %VAR%}
     * replaced and carets outside quotes dropped (quotes, {@code = , ;} stay: the program's runtime
     * splits it). Null when a variable in it is not known here.
     */
    static String programLine(String raw, Map<String, String> env) {
        StringBuilder sb = new StringBuilder();
        boolean inQuotes = false;
        for (int i = 0; i < raw.length(); i++) {
            char c = raw.charAt(i);
            if (c == '%' || c == '!') {
                int close = raw.indexOf(c, i + 1);
                if (close > i + 1) {
                    String name = raw.substring(i + 1, close);
                    String value = c == '%' ? lookup(env, name) : null;
                    if (value == null || c == '!') {
                        return null;
                    }
                    sb.append(value);
                    i = close;
                    continue;
                }
            }
            if (c == '"') {
                inQuotes = !inQuotes;
            } else if (c == '^' && !inQuotes && i + 1 < raw.length()) {
                c = raw.charAt(++i);
            }
            sb.append(c);
        }
        return sb.toString();
    }

    private static String lookup(Map<String, String> env, String name) {
        for (Map.Entry<String, String> e : env.entrySet()) {
            if (e.getKey().equalsIgnoreCase(name)) {
                return e.getValue();
            }
        }
        return null;
    }

    /** A variable's value when it cannot change how the line splits; null otherwise. */
    private String value(String name) {
        for (Map.Entry<String, String> e : env.entrySet()) {
            if (e.getKey().equalsIgnoreCase(name)) {
                String v = e.getValue();
                for (int i = 0; i < v.length(); i++) {
                    if (SPECIAL.indexOf(v.charAt(i)) >= 0) {
                        return null;
                    }
                }
                return v;
            }
        }
        return null;
    }
}
