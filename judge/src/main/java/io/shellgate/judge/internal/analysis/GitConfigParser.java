package io.shellgate.judge.internal.analysis;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Reads a git config file the way git's own parser does: a value continues over a backslash at
 * the end of its line (so {@code [x]} on the next line is part of the value, not a new
 * section), quotes and escapes, comments after {@code #} and {@code ;} outside quotes, a key on
 * the same line as its section header. A file that git would refuse to read is reported, since
 * shellgate cannot know what git makes of it.
 */
final class GitConfigParser {

    /** One setting: the full key in lower case ({@code section.subsection.name}, the subsection as written) and its value. */
    record Entry(String key, String value) {}

    /** Raised for text git would not read as a config file. */
    static final class Error extends RuntimeException {
        Error(String message) {
            super(message, null, false, false);
        }
    }

    private final String s;
    private int i;
    private String section = "";

    private GitConfigParser(String text) {
        this.s = text;
    }

    static List<Entry> entries(String text) {
        return new GitConfigParser(text).run();
    }

    private List<Entry> run() {
        List<Entry> out = new ArrayList<>();
        while (i < s.length()) {
            char c = s.charAt(i);
            if (c == '\n' || c == ' ' || c == '\t' || c == '\r') {
                i++;
            } else if (c == '#' || c == ';') {
                toEndOfLine();
            } else if (c == '[') {
                header();
            } else if (Character.isLetter(c)) {
                out.add(entry());
            } else if (i == 0 && s.startsWith("\uFEFF")) {
                i++;
            } else {
                throw new Error("unexpected '" + c + "' at offset " + i);
            }
        }
        return out;
    }

    private void header() {
        i++;
        int start = i;
        while (i < s.length() && (Character.isLetterOrDigit(s.charAt(i)) || s.charAt(i) == '-' || s.charAt(i) == '.')) {
            i++;
        }
        String name = s.substring(start, i).toLowerCase(Locale.ROOT);
        StringBuilder sub = null;
        if (i < s.length() && (s.charAt(i) == ' ' || s.charAt(i) == '\t')) {
            while (i < s.length() && (s.charAt(i) == ' ' || s.charAt(i) == '\t')) {
                i++;
            }
            if (i >= s.length() || s.charAt(i) != '"') {
                throw new Error("a section header without its subsection in quotes");
            }
            i++;
            sub = new StringBuilder();
            while (i < s.length() && s.charAt(i) != '"') {
                char c = s.charAt(i);
                if (c == '\n') {
                    throw new Error("a subsection name that runs over its line");
                }
                if (c == '\\' && i + 1 < s.length()) {
                    c = s.charAt(++i);
                }
                sub.append(c);
                i++;
            }
            i++;
        }
        if (i >= s.length() || s.charAt(i) != ']') {
            throw new Error("a section header that is not closed");
        }
        i++;
        if (name.isEmpty()) {
            throw new Error("a section without a name");
        }
        // the old form [section.subsection] names the subsection in lower case
        section = sub == null ? name : name + "." + sub;
    }

    private Entry entry() {
        int start = i;
        while (i < s.length() && (Character.isLetterOrDigit(s.charAt(i)) || s.charAt(i) == '-')) {
            i++;
        }
        String name = s.substring(start, i).toLowerCase(Locale.ROOT);
        while (i < s.length() && (s.charAt(i) == ' ' || s.charAt(i) == '\t')) {
            i++;
        }
        String key = section.isEmpty() ? name : section + "." + name;
        if (section.isEmpty()) {
            throw new Error("the key " + name + " is outside any section");
        }
        if (i >= s.length() || s.charAt(i) == '\n' || s.charAt(i) == '\r' || s.charAt(i) == '#' || s.charAt(i) == ';') {
            return new Entry(key, "true");
        }
        if (s.charAt(i) != '=') {
            throw new Error("the key " + key + " is followed by '" + s.charAt(i) + "'");
        }
        i++;
        return new Entry(key, value());
    }

    private String value() {
        StringBuilder v = new StringBuilder();
        boolean quoted = false;
        boolean comment = false;
        int trailingSpace = 0;
        while (i < s.length()) {
            char c = s.charAt(i++);
            if (c == '\n') {
                if (quoted) {
                    throw new Error("a quoted value that runs over its line");
                }
                break;
            }
            if (comment) {
                continue;
            }
            if (c == '\\') {
                if (i >= s.length()) {
                    throw new Error("a backslash at the end of the file");
                }
                char e = s.charAt(i++);
                switch (e) {
                    case '\n' -> {
                        // the value goes on on the next line
                    }
                    case '\r' -> {
                        if (i < s.length() && s.charAt(i) == '\n') {
                            i++;
                        }
                    }
                    case 't' -> v.append('\t');
                    case 'b' -> v.append('\b');
                    case 'n' -> v.append('\n');
                    case '\\', '"' -> v.append(e);
                    default -> throw new Error("an unknown escape \\" + e + " in a value");
                }
                trailingSpace = 0;
                continue;
            }
            if (c == '"') {
                quoted = !quoted;
                continue;
            }
            if (!quoted && (c == '#' || c == ';')) {
                comment = true;
                continue;
            }
            if (!quoted && (c == ' ' || c == '\t' || c == '\r')) {
                if (v.length() > 0) {
                    v.append(' ');
                    trailingSpace++;
                }
                continue;
            }
            trailingSpace = 0;
            v.append(c);
        }
        if (quoted) {
            throw new Error("a quoted value that is not closed");
        }
        return v.substring(0, v.length() - Math.min(trailingSpace, v.length())).strip();
    }

    private void toEndOfLine() {
        while (i < s.length() && s.charAt(i) != '\n') {
            i++;
        }
    }
}
