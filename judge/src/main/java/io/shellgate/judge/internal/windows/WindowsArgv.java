package io.shellgate.judge.internal.windows;

import java.util.ArrayList;
import java.util.List;

/**
 * A Windows command line and the argument vector a program's C runtime makes of it
 * ({@code CommandLineToArgvW}): whitespace separates, double quotes group, backslashes only
 * escape before a quote, and {@code ""} inside quotes is a quote.
 */
public final class WindowsArgv {

    private WindowsArgv() {}

    public static List<String> split(String line) {
        List<String> out = new ArrayList<>();
        StringBuilder cur = new StringBuilder();
        boolean inQuotes = false;
        boolean any = false;
        int i = 0;
        while (i < line.length()) {
            char c = line.charAt(i);
            if (c == '\\') {
                int n = 0;
                while (i < line.length() && line.charAt(i) == '\\') {
                    n++;
                    i++;
                }
                if (i < line.length() && line.charAt(i) == '"') {
                    cur.append("\\".repeat(n / 2));
                    if (n % 2 == 1) {
                        cur.append('"');
                        i++;
                    }
                } else {
                    cur.append("\\".repeat(n));
                }
                any = true;
                continue;
            }
            if (c == '"') {
                if (inQuotes && i + 1 < line.length() && line.charAt(i + 1) == '"') {
                    cur.append('"');
                    i += 2;
                    continue;
                }
                inQuotes = !inQuotes;
                any = true;
                i++;
                continue;
            }
            if (!inQuotes && (c == ' ' || c == '\t' || c == '\n' || c == '\r')) {
                if (any) {
                    out.add(cur.toString());
                    cur.setLength(0);
                    any = false;
                }
                i++;
                continue;
            }
            cur.append(c);
            any = true;
            i++;
        }
        if (any) {
            out.add(cur.toString());
        }
        return out;
    }

    /** Joins arguments into one command line as a caller's runtime would, quoting those with spaces. */
    public static String join(List<String> args) {
        StringBuilder sb = new StringBuilder();
        for (String a : args) {
            if (!sb.isEmpty()) {
                sb.append(' ');
            }
            boolean quote = a.isEmpty() || a.indexOf(' ') >= 0 || a.indexOf('\t') >= 0;
            sb.append(quote ? "\"" + a.replace("\"", "\\\"") + "\"" : a);
        }
        return sb.toString();
    }
}
