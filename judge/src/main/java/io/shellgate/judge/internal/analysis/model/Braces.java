package io.shellgate.judge.internal.analysis.model;

import io.shellgate.judge.internal.syntax.Part;
import java.util.ArrayList;
import java.util.List;

/**
 * Brace expansion of unquoted literal text, done before any other expansion as bash does it:
 * {@code /{etc,usr}} becomes two words, {@code {1..3}} three; more than a bounded number of words
 * is not expanded (the word is opaque: ask).
 */
final class Braces {

    private static final int MAX_BRACE_WORDS = 128;

    private Braces() {}

    /** The alternatives a word becomes; a word with too many is one opaque part. */
    static List<List<Part>> expand(List<Part> parts) {
        List<List<Part>> out = new ArrayList<>();
        out.add(parts);
        for (int round = 0; round < 8; round++) {
            List<List<Part>> next = new ArrayList<>();
            boolean changed = false;
            for (List<Part> alt : out) {
                List<List<Part>> expanded = expandFirstBrace(alt);
                if (expanded == null) {
                    next.add(alt);
                } else {
                    next.addAll(expanded);
                    changed = true;
                }
                if (next.size() > MAX_BRACE_WORDS) {
                    return List.of(List.of(new Part.Opaque("too many brace alternatives", parts.getFirst().span())));
                }
            }
            out = next;
            if (!changed) {
                break;
            }
        }
        return out;
    }

    private static List<List<Part>> expandFirstBrace(List<Part> parts) {
        for (int i = 0; i < parts.size(); i++) {
            if (!(parts.get(i) instanceof Part.Literal l) || l.quoted()) {
                continue;
            }
            String t = l.text();
            int open = t.indexOf('{');
            while (open >= 0) {
                int close = matching(t, open);
                if (close > open) {
                    List<String> items = items(t.substring(open + 1, close));
                    if (items != null && open == 0 && i > 0 && parts.get(i - 1) instanceof Part.Param
                            && items.stream().anyMatch(x -> !x.isEmpty() && (Character.isLetterOrDigit(x.charAt(0)) || x.charAt(0) == '_'))) {
                        // bash expands braces before variables: $X{p,q} means $Xp and $Xq
                        return List.of(List.of(new Part.Opaque("braces right after a variable name", l.span())));
                    }
                    if (items != null) {
                        List<List<Part>> out = new ArrayList<>();
                        for (String item : items) {
                            List<Part> copy = new ArrayList<>(parts);
                            copy.set(i, new Part.Literal(t.substring(0, open) + item + t.substring(close + 1), false, l.span()));
                            out.add(copy);
                        }
                        return out;
                    }
                }
                open = t.indexOf('{', open + 1);
            }
        }
        return null;
    }

    private static int matching(String t, int open) {
        int depth = 0;
        for (int i = open; i < t.length(); i++) {
            if (t.charAt(i) == '{') {
                depth++;
            } else if (t.charAt(i) == '}' && --depth == 0) {
                return i;
            }
        }
        return -1;
    }

    /** The alternatives inside braces: {@code a,b,c} or a sequence {@code 1..3}; null if neither. */
    private static List<String> items(String body) {
        List<String> items = new ArrayList<>();
        int depth = 0;
        int start = 0;
        for (int i = 0; i < body.length(); i++) {
            char c = body.charAt(i);
            if (c == '{') {
                depth++;
            } else if (c == '}') {
                depth--;
            } else if (c == ',' && depth == 0) {
                items.add(body.substring(start, i));
                start = i + 1;
            }
        }
        if (!items.isEmpty()) {
            items.add(body.substring(start));
            return items;
        }
        String[] range = body.split("\\.\\.");
        if (range.length == 2 || range.length == 3) {
            try {
                int a = Integer.parseInt(range[0]);
                int b = Integer.parseInt(range[1]);
                int step = range.length == 3 ? Math.max(1, Math.abs(Integer.parseInt(range[2]))) : 1;
                if (Math.abs((long) b - a) / step > MAX_BRACE_WORDS) {
                    return null;
                }
                for (int x = a; a <= b ? x <= b : x >= b; x += a <= b ? step : -step) {
                    items.add(Integer.toString(x));
                }
                return items;
            } catch (NumberFormatException e) {
                if (range.length == 2 && range[0].length() == 1 && range[1].length() == 1) {
                    char a = range[0].charAt(0);
                    char b = range[1].charAt(0);
                    for (char x = a; a <= b ? x <= b : x >= b; x += (char) (a <= b ? 1 : -1)) {
                        items.add(String.valueOf(x));
                    }
                    return items;
                }
            }
        }
        return null;
    }
}
