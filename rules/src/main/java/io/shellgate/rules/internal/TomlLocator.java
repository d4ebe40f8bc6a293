package io.shellgate.rules.internal;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Finds the line and column where a key of a TOML document was written.
 *
 * <p>Jackson's TOML module reads a document into a tree and forgets positions, so errors found
 * while reading that tree are located by scanning the text once for table headers and keys. Keys
 * inside inline tables are located at their enclosing key.
 */
public final class TomlLocator {

    private final Map<String, int[]> positions = new HashMap<>();

    public TomlLocator(String text) {
        scan(text);
    }

    /**
     * The 1-based line and column of the longest prefix of {@code path} that was found, as
     * {@code {line, column}}, or {@code {0, 0}} when nothing was found.
     *
     * @param path keys and array indices, such as {@code ["rule", 3, "raw"]}
     */
    public int[] locate(List<Object> path) {
        for (int n = path.size(); n > 0; n--) {
            int[] found = positions.get(key(path.subList(0, n)));
            if (found != null) {
                return found;
            }
        }
        return new int[] {0, 0};
    }

    private static String key(List<Object> path) {
        StringBuilder sb = new StringBuilder();
        for (Object segment : path) {
            sb.append(segment instanceof Integer i ? "[" + i + "]" : "." + segment);
        }
        return sb.toString();
    }

    private void scan(String text) {
        List<Object> table = new ArrayList<>();
        Map<String, Integer> arrayCounts = new HashMap<>();
        String[] lines = text.split("\n", -1);
        // Multi-line strings and arrays span lines; keys are only looked for outside them.
        String openString = null;
        int bracketDepth = 0;
        for (int row = 0; row < lines.length; row++) {
            String line = lines[row];
            int i = 0;
            if (openString != null) {
                int end = line.indexOf(openString);
                if (end < 0) {
                    continue;
                }
                i = end + 3;
                openString = null;
            }
            if (bracketDepth == 0) {
                int start = skipSpace(line, i);
                if (start < line.length() && line.charAt(start) == '[') {
                    boolean arrayTable = line.startsWith("[[", start);
                    int close = line.indexOf(arrayTable ? "]]" : "]", start);
                    if (close > start) {
                        List<Object> header = new ArrayList<>(splitKey(line.substring(start + (arrayTable ? 2 : 1), close)));
                        if (arrayTable) {
                            String k = key(header);
                            int index = arrayCounts.merge(k, 1, Integer::sum) - 1;
                            header.add(index);
                        }
                        table = header;
                        positions.putIfAbsent(key(table), new int[] {row + 1, start + 1});
                        continue;
                    }
                } else if (start < line.length() && line.charAt(start) != '#') {
                    int eq = keyEnd(line, start);
                    if (eq > start) {
                        List<Object> path = new ArrayList<>(table);
                        path.addAll(splitKey(line.substring(start, eq)));
                        positions.putIfAbsent(key(path), new int[] {row + 1, start + 1});
                        i = eq + 1;
                    }
                }
            }
            // Track strings and brackets in the value part so that continuation lines are skipped.
            for (; i < line.length(); i++) {
                char c = line.charAt(i);
                if (c == '#') {
                    break;
                } else if (line.startsWith("\"\"\"", i) || line.startsWith("'''", i)) {
                    String quote = line.substring(i, i + 3);
                    int end = line.indexOf(quote, i + 3);
                    if (end < 0) {
                        openString = quote;
                        break;
                    }
                    i = end + 2;
                } else if (c == '"' || c == '\'') {
                    i = closingQuote(line, i, c);
                } else if (c == '[' || c == '{') {
                    bracketDepth++;
                } else if (c == ']' || c == '}') {
                    bracketDepth = Math.max(0, bracketDepth - 1);
                }
            }
        }
    }

    private static int skipSpace(String line, int i) {
        while (i < line.length() && (line.charAt(i) == ' ' || line.charAt(i) == '\t')) {
            i++;
        }
        return i;
    }

    /** The index of the {@code =} after a key starting at {@code start}, or -1. */
    private static int keyEnd(String line, int start) {
        for (int i = start; i < line.length(); i++) {
            char c = line.charAt(i);
            if (c == '=') {
                return i;
            } else if (c == '"' || c == '\'') {
                i = closingQuote(line, i, c);
            } else if (c == '#') {
                return -1;
            }
        }
        return -1;
    }

    private static int closingQuote(String line, int open, char quote) {
        for (int i = open + 1; i < line.length(); i++) {
            char c = line.charAt(i);
            if (c == '\\' && quote == '"') {
                i++;
            } else if (c == quote) {
                return i;
            }
        }
        return line.length();
    }

    private static List<String> splitKey(String raw) {
        List<String> parts = new ArrayList<>();
        StringBuilder current = new StringBuilder();
        for (int i = 0; i < raw.length(); i++) {
            char c = raw.charAt(i);
            if (c == '"' || c == '\'') {
                int close = closingQuote(raw, i, c);
                current.append(raw, i + 1, Math.min(close, raw.length()));
                i = close;
            } else if (c == '.') {
                parts.add(current.toString().strip());
                current.setLength(0);
            } else {
                current.append(c);
            }
        }
        parts.add(current.toString().strip());
        return parts;
    }
}
