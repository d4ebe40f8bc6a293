package io.shellgate.judge.internal.analysis;

import java.util.List;
import java.util.Set;

/**
 * Reads an awk program far enough to find what makes it more than a text filter: {@code system()},
 * pipes to or from commands, output redirection in {@code print}, {@code @load}/{@code @include},
 * and reading the environment. Files read with {@code getline < "file"} are reported for the
 * sensitive-path check.
 */
final class AwkProgram {

    private static final Set<String> CODE = Set.of("system", "@load", "@include", "@namespace");

    private AwkProgram() {}

    /** Why the program is not a plain filter, or null. Literal files it reads go to {@code reads}. */
    static String problem(String p, List<String> reads) {
        boolean inPrint = false;
        int parens = 0;
        char previous = ' ';
        for (int i = 0; i < p.length(); i++) {
            char c = p.charAt(i);
            if (c == '"') {
                int end = stringEnd(p, i);
                previous = '"';
                i = end;
                continue;
            }
            if (c == '#') {
                while (i < p.length() && p.charAt(i) != '\n') {
                    i++;
                }
                continue;
            }
            if (c == '/' && regexCanStart(previous)) {
                i = regexEnd(p, i);
                previous = '/';
                continue;
            }
            if (Character.isLetter(c) || c == '_' || c == '@') {
                int start = i;
                while (i + 1 < p.length() && (Character.isLetterOrDigit(p.charAt(i + 1)) || p.charAt(i + 1) == '_')) {
                    i++;
                }
                String word = p.substring(start, i + 1);
                if (CODE.contains(word)) {
                    return "the program runs commands or loads code (" + word + ")";
                }
                if (word.equals("ENVIRON") || word.equals("PROCINFO")) {
                    return "the program reads " + word;
                }
                if (word.equals("print") || word.equals("printf")) {
                    inPrint = true;
                    parens = 0;
                }
                if (word.equals("getline")) {
                    int j = skipSpace(p, i + 1);
                    // an optional variable: getline line < "file"
                    int k = j;
                    while (k < p.length() && (Character.isLetterOrDigit(p.charAt(k)) || p.charAt(k) == '_')) {
                        k++;
                    }
                    if (k > j) {
                        j = skipSpace(p, k);
                    }
                    if (j < p.length() && p.charAt(j) == '<') {
                        j = skipSpace(p, j + 1);
                        if (j < p.length() && p.charAt(j) == '"') {
                            reads.add(p.substring(j + 1, stringEnd(p, j)));
                        } else {
                            return "getline reads a file whose name is computed";
                        }
                    }
                }
                previous = 'a';
                continue;
            }
            switch (c) {
                case '|' -> {
                    if (i + 1 < p.length() && p.charAt(i + 1) == '|') {
                        i++;
                    } else {
                        return "the program pipes to or from a command";
                    }
                }
                case '>' -> {
                    if (inPrint && parens == 0) {
                        return "print writes to a file";
                    }
                }
                case '(' -> parens++;
                case ')' -> parens--;
                case ';', '}', '{', '\n' -> inPrint = false;
                default -> {
                    // other characters do not matter here
                }
            }
            if (!Character.isWhitespace(c)) {
                previous = c;
            }
        }
        return null;
    }

    /** A slash after an operand divides; anywhere else it starts a regular expression. */
    private static boolean regexCanStart(char previous) {
        return previous != 'a' && previous != ')' && previous != ']' && previous != '"' && previous != '/'
                && previous != '$' && !Character.isDigit(previous);
    }

    private static int stringEnd(String p, int open) {
        for (int i = open + 1; i < p.length(); i++) {
            if (p.charAt(i) == '\\') {
                i++;
            } else if (p.charAt(i) == '"') {
                return i;
            }
        }
        return p.length() - 1;
    }

    private static int regexEnd(String p, int open) {
        for (int i = open + 1; i < p.length(); i++) {
            if (p.charAt(i) == '\\') {
                i++;
            } else if (p.charAt(i) == '/' || p.charAt(i) == '\n') {
                return i;
            }
        }
        return p.length() - 1;
    }

    private static int skipSpace(String p, int i) {
        while (i < p.length() && p.charAt(i) == ' ') {
            i++;
        }
        return i;
    }
}
