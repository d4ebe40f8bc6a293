package io.shellgate.judge.internal.analysis.language;

import com.google.re2j.Pattern;

/**
 * zsh's file name patterns that bash's grammar does not read: glob qualifiers at the end of a
 * pattern ({@code *(.)}, {@code *(D)}, {@code src/*.c(om[1,3])}) and numeric ranges ({@code <->},
 * {@code <1-5>}). Before a zsh line is parsed they are rewritten, in place and to text of the same
 * length, into a bash pattern that matches at least what zsh's does: a qualifier that only selects
 * or orders files is dropped (the pattern then matches more), {@code D} (dot files too) adds the
 * pattern {@code .*}, a numeric range becomes stars. A qualifier that runs code ({@code (e:...:)},
 * {@code (+func)}), changes the names ({@code (:h)}, {@code (P:x:)}, {@code (T)}) or is not known
 * is left as it is, which does not parse and asks.
 *
 * <p>Parameter flags that run no code ({@code ${(Q)x}}, {@code ${(U)x}}, {@code ${(%):-%~}} of a
 * fixed prompt text) become a command substitution that expands the same variable
 * ({@code $(: $x)}): the variable is judged as expanded, and the word's value is unknown. The flags
 * that evaluate ({@code (e)}, {@code (P)}, {@code (#)} (arithmetic), {@code (%)} of a variable), and
 * any form with an operator or subscript, are left as they are and ask.
 */
public final class ZshSyntax {

    /** Qualifiers that select or order files, and subscripts of the matches. */
    private static final Pattern SAFE = Pattern.compile("(?:[/.@=p*%rwxAIERWXsStUGNDn^-]|[oO][nLlamcdN]"
            + "|[Llamc][kKmMpPgGtTwhsd]?[+-]?[0-9]+|\\[-?[0-9]+(?:,-?[0-9]+)?\\])+");
    private static final Pattern RANGE = Pattern.compile("<[0-9]*-[0-9]*>");
    /** {@code ${(FLAGS)name}} with flags that only change case, quoting, splitting or order. */
    private static final Pattern FLAGGED = Pattern.compile("\\$\\{\\(([QULCqzkvoOinufF@twWSBEMNgV]+)\\)([A-Za-z_][A-Za-z0-9_]*)\\}");
    /** {@code ${(%):-TEXT}}: a fixed prompt text with no expansion in it. */
    private static final Pattern PROMPT = Pattern.compile("\\$\\{\\(%\\):-([A-Za-z0-9%~/._ -]*)\\}");

    private ZshSyntax() {}

    /** The line with its qualifiers and ranges rewritten; the same text when it has none. */
    public static String rewrite(String text) {
        if (text.indexOf('(') < 0 && text.indexOf('<') < 0) {
            return text;
        }
        char[] out = text.toCharArray();
        int wordStart = 0;
        boolean plainWord = true;
        boolean glob = false;
        int i = 0;
        while (i < text.length()) {
            char c = text.charAt(i);
            if (c == '\\') {
                plainWord = false;
                i += 2;
                continue;
            }
            if (c == '$' && text.startsWith("${(", i)) {
                String rest = text.substring(i, Math.min(text.length(), i + 256));
                var flagged = FLAGGED.matcher(rest);
                var prompt = PROMPT.matcher(rest);
                int end = -1;
                String inner = "";
                if (flagged.lookingAt()) {
                    end = i + flagged.end();
                    inner = "$" + flagged.group(2);
                } else if (prompt.lookingAt()) {
                    end = i + prompt.end();
                }
                if (end > 0) {
                    String replaced = "$(: " + inner;
                    for (int j = i; j < end - 1; j++) {
                        out[j] = j - i < replaced.length() ? replaced.charAt(j - i) : ' ';
                    }
                    out[end - 1] = ')';
                    plainWord = false;
                    i = end;
                    continue;
                }
            }
            if (c == '\'' || c == '"' || c == '`' || c == '$') {
                // quoted text and expansions are left to the parser: a pattern in such a word is not rewritten
                plainWord = false;
                if (c == '\'' || c == '"' || c == '`') {
                    int close = text.indexOf(c, i + 1);
                    i = close < 0 ? text.length() : close + 1;
                } else {
                    i++;
                }
                continue;
            }
            if (Character.isWhitespace(c) || c == ';' || c == '|' || c == '&' || c == ')') {
                wordStart = i + 1;
                plainWord = true;
                glob = false;
                i++;
                continue;
            }
            if (c == '<') {
                var m = RANGE.matcher(text.substring(i, Math.min(text.length(), i + 24)));
                // a range inside a word (or starting one that goes on) is a pattern, not a redirection
                if (m.lookingAt() && plainWord && (i > wordStart || i + m.end() < text.length()
                        && !Character.isWhitespace(text.charAt(i + m.end())))) {
                    for (int j = i; j < i + m.end(); j++) {
                        out[j] = '*';
                    }
                    glob = true;
                    i += m.end();
                    continue;
                }
            }
            if (c == '*' || c == '?' || c == ']') {
                glob = true;
            }
            if (c == '(' && glob && plainWord && i > wordStart) {
                int close = text.indexOf(')', i);
                boolean ends = close > 0 && (close + 1 == text.length() || " \t\n;|&)".indexOf(text.charAt(close + 1)) >= 0);
                String qualifier = close > 0 ? text.substring(i + 1, close) : "";
                if (ends && SAFE.matcher(qualifier).matches()) {
                    String word = text.substring(wordStart, i);
                    for (int j = i; j <= close; j++) {
                        out[j] = ' ';
                    }
                    String last = word.substring(word.lastIndexOf('/') + 1);
                    boolean hidden = qualifier.indexOf('D') >= 0 && (last.isEmpty() || "*?[".indexOf(last.charAt(0)) >= 0
                            || word.indexOf('/') >= 0);
                    if (hidden && word.indexOf('/') < 0) {
                        // D: dot files match too; ".*" names every one of them
                        out[i + 1] = '.';
                        out[i + 2] = '*';
                    } else if (hidden) {
                        // dot files in another directory: not rewritten, so it asks
                        return text;
                    }
                    i = close + 1;
                    continue;
                }
            }
            i++;
        }
        return new String(out);
    }
}
