package io.shellgate.judge.internal.analysis;

/**
 * Reads a sed script far enough to find the commands that write files ({@code w}, {@code W},
 * the {@code w} flag of {@code s}) or run programs ({@code e}, the {@code e} flag of {@code s}).
 * A script it cannot read is reported too.
 */
final class SedScript {

    private final String s;
    private int i;
    private String readFile;

    private SedScript(String script) {
        this.s = script;
    }

    /** Why the script is not read-only, or null when it is. */
    static String problem(String script) {
        return new SedScript(script).scan();
    }

    /** The file an {@code r} or {@code R} command reads, if any. */
    static String readsFile(String script) {
        SedScript p = new SedScript(script);
        p.scan();
        return p.readFile;
    }

    private String scan() {
        while (i < s.length()) {
            skipSeparators();
            if (i >= s.length()) {
                break;
            }
            if (s.charAt(i) == '#') {
                skipLine();
                continue;
            }
            if (!address()) {
                return "cannot read the address at \"" + rest() + "\"";
            }
            skipBlanks();
            if (i < s.length() && s.charAt(i) == ',') {
                i++;
                skipBlanks();
                if (!address()) {
                    return "cannot read the address at \"" + rest() + "\"";
                }
                skipBlanks();
            }
            while (i < s.length() && s.charAt(i) == '!') {
                i++;
                skipBlanks();
            }
            if (i >= s.length()) {
                return "an address without a command";
            }
            char c = s.charAt(i++);
            switch (c) {
                case '{', '}', '=', 'd', 'D', 'g', 'G', 'h', 'H', 'n', 'N', 'p', 'P', 'x', 'z', 'F' -> {
                    // no argument
                }
                case 'l', 'L', 'q', 'Q' -> skipNumber();
                case 'b', 't', 'T', ':', 'v' -> skipLabel();
                case 'a', 'i', 'c' -> skipText();
                case 'r', 'R' -> readFile = filename();
                case 'w', 'W' -> {
                    return "the script writes to a file (" + c + " " + filename() + ")";
                }
                case 'e' -> {
                    return "the script runs a command (e)";
                }
                case 's' -> {
                    String problem = substitute();
                    if (problem != null) {
                        return problem;
                    }
                }
                case 'y' -> {
                    if (!delimited(2)) {
                        return "cannot read the y command";
                    }
                }
                default -> {
                    return "unknown sed command '" + c + "'";
                }
            }
        }
        return null;
    }

    private String substitute() {
        if (!delimited(2)) {
            return "cannot read the s command";
        }
        while (i < s.length()) {
            char f = s.charAt(i);
            if (f == 'e') {
                return "the s command's e flag runs the result as a command";
            } else if (f == 'w') {
                i++;
                return "the s command's w flag writes to a file (" + filename() + ")";
            } else if ("gpiImM0123456789".indexOf(f) >= 0) {
                i++;
            } else {
                break;
            }
        }
        return null;
    }

    /** Reads a delimiter and {@code parts} delimited parts. */
    private boolean delimited(int parts) {
        if (i >= s.length() || s.charAt(i) == '\n' || s.charAt(i) == '\\') {
            return false;
        }
        char d = s.charAt(i++);
        for (int p = 0; p < parts; p++) {
            while (i < s.length() && s.charAt(i) != d) {
                if (s.charAt(i) == '\\') {
                    i++;
                }
                i++;
            }
            if (i >= s.length()) {
                return false;
            }
            i++;
        }
        return true;
    }

    private boolean address() {
        if (i >= s.length()) {
            return true;
        }
        char c = s.charAt(i);
        if (Character.isDigit(c)) {
            skipNumber();
            if (i < s.length() && s.charAt(i) == '~') {
                i++;
                skipNumber();
            }
            return true;
        }
        if (c == '$') {
            i++;
            return true;
        }
        if (c == '+' || c == '~') {
            i++;
            skipNumber();
            return true;
        }
        if (c == '/' || c == '\\') {
            if (c == '\\') {
                i++;
            }
            if (!delimited(1)) {
                return false;
            }
            while (i < s.length() && (s.charAt(i) == 'I' || s.charAt(i) == 'M')) {
                i++;
            }
        }
        return true;
    }

    private String filename() {
        skipBlanks();
        int start = i;
        while (i < s.length() && s.charAt(i) != '\n') {
            i++;
        }
        return s.substring(start, i).strip();
    }

    private void skipText() {
        // GNU one-line form "a text", or "a\" followed by lines ending in backslashes
        while (i < s.length() && s.charAt(i) != '\n') {
            if (s.charAt(i) == '\\' && i + 1 < s.length()) {
                i++;
            }
            i++;
        }
    }

    private void skipLabel() {
        while (i < s.length() && s.charAt(i) != ';' && s.charAt(i) != '\n' && s.charAt(i) != '}') {
            i++;
        }
    }

    private void skipLine() {
        while (i < s.length() && s.charAt(i) != '\n') {
            i++;
        }
    }

    private void skipNumber() {
        skipBlanks();
        while (i < s.length() && Character.isDigit(s.charAt(i))) {
            i++;
        }
    }

    private void skipBlanks() {
        while (i < s.length() && (s.charAt(i) == ' ' || s.charAt(i) == '\t')) {
            i++;
        }
    }

    private void skipSeparators() {
        while (i < s.length() && (Character.isWhitespace(s.charAt(i)) || s.charAt(i) == ';')) {
            i++;
        }
    }

    private String rest() {
        return s.substring(i, Math.min(s.length(), i + 20));
    }
}
