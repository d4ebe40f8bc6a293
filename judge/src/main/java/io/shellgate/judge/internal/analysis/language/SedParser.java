package io.shellgate.judge.internal.analysis.language;

import java.util.ArrayList;
import java.util.List;

/**
 * Parses a sed script with GNU sed's grammar: addresses, {@code !}, blocks, and each command's
 * own arguments (labels end at whitespace or {@code ;}, file names and appended text run to the
 * end of the line, {@code s} and {@code y} take delimited parts and flags). The script is allowed
 * only when it runs nothing ({@code e}, the {@code e} flag); the files it writes ({@code w},
 * {@code W}, the {@code w} flag) and reads ({@code r}, {@code R}) are handed to the caller to be
 * judged as writes and reads. A script it cannot parse is not allowed.
 */
public final class SedParser {

    /** Why the script is not allowed (null when it is), the files it reads and writes, and the commands {@code e} runs. */
    public record Result(String problem, List<String> reads, List<String> writes, List<String> commands) {}

    private static final class Failure extends RuntimeException {
        Failure(String message) {
            super(message, null, false, false);
        }
    }

    private final String s;
    private int i;
    private int blocks;
    private final List<String> reads = new ArrayList<>();
    private final List<String> writes = new ArrayList<>();
    private final List<String> commands = new ArrayList<>();
    private String runs;

    private SedParser(String script) {
        this.s = script;
    }

    public static Result check(String script) {
        SedParser p = new SedParser(script);
        try {
            p.script();
            if (p.blocks != 0) {
                throw new Failure("a { without its }");
            }
            return new Result(p.runs, p.reads, p.writes, p.commands);
        } catch (Failure f) {
            return new Result(f.getMessage(), p.reads, p.writes, p.commands);
        }
    }

    private void script() {
        while (true) {
            while (i < s.length() && (Character.isWhitespace(s.charAt(i)) || s.charAt(i) == ';')) {
                i++;
            }
            if (i >= s.length()) {
                return;
            }
            if (s.charAt(i) == '#') {
                toEndOfLine();
                continue;
            }
            command();
        }
    }

    private void command() {
        if (address()) {
            blanks();
            if (peek() == ',') {
                i++;
                blanks();
                if (!address()) {
                    throw new Failure("an address after , is missing at " + i);
                }
            }
        }
        blanks();
        while (peek() == '!') {
            i++;
            blanks();
        }
        if (i >= s.length()) {
            throw new Failure("an address without a command");
        }
        char c = s.charAt(i++);
        switch (c) {
            case '{' -> blocks++;
            case '}' -> {
                if (--blocks < 0) {
                    throw new Failure("a } without its {");
                }
                endOfCommand();
            }
            case '=', 'd', 'D', 'g', 'G', 'h', 'H', 'n', 'N', 'p', 'P', 'x', 'z', 'F' -> endOfCommand();
            case 'l', 'L', 'q', 'Q' -> {
                blanks();
                while (Character.isDigit(peek())) {
                    i++;
                }
                endOfCommand();
            }
            case ':', 'b', 't', 'T', 'v' -> label();
            case 'a', 'i', 'c' -> text();
            case 'r', 'R' -> reads.add(fileName(c));
            case 'w', 'W' -> writes.add(fileName(c));
            case 'e' -> {
                // e COMMAND runs COMMAND; a bare e runs the pattern space, which is not known here
                blanks();
                int start = i;
                toEndOfLine();
                if (runs == null) {
                    runs = "the script runs a command (e)";
                }
                if (i > start) {
                    commands.add(s.substring(start, i));
                }
            }
            case 's' -> substitute();
            case 'y' -> {
                delimited(2, "y");
                endOfCommand();
            }
            default -> throw new Failure("unknown sed command '" + c + "'");
        }
    }

    /** Reads an address if there is one. */
    private boolean address() {
        char c = peek();
        if (Character.isDigit(c)) {
            digits();
            if (peek() == '~') {
                i++;
                digits();
            }
            return true;
        }
        if (c == '$') {
            i++;
            return true;
        }
        if (c == '+' || c == '~') {
            i++;
            digits();
            return true;
        }
        if (c == '/' || c == '\\') {
            if (c == '\\') {
                i++;
            }
            delimited(1, "address");
            while (peek() == 'I' || peek() == 'M') {
                i++;
            }
            return true;
        }
        return false;
    }

    private void label() {
        blanks();
        // GNU sed ends a label at whitespace or a semicolon; what follows is the next command
        while (i < s.length() && !Character.isWhitespace(s.charAt(i)) && s.charAt(i) != ';') {
            i++;
        }
    }

    private void text() {
        blanks();
        if (peek() == '\\') {
            i++;
            if (peek() == '\n') {
                i++;
            }
        }
        while (i < s.length() && s.charAt(i) != '\n') {
            if (s.charAt(i) == '\\' && i + 1 < s.length()) {
                i++;
            }
            i++;
        }
    }

    private String fileName(char command) {
        blanks();
        int start = i;
        toEndOfLine();
        String name = s.substring(start, i);
        if (name.isEmpty()) {
            throw new Failure("the " + command + " command needs a file name");
        }
        return name;
    }

    private void substitute() {
        delimited(2, "s");
        while (i < s.length()) {
            char f = s.charAt(i);
            if (f == 'e') {
                throw new Failure("the s command's e flag runs the result as a command");
            } else if (f == 'w') {
                i++;
                writes.add(fileName('w'));
                return;
            } else if ("gpiImM0123456789".indexOf(f) >= 0) {
                i++;
            } else {
                break;
            }
        }
        endOfCommand();
    }

    /** A delimiter and {@code parts} parts ending in it; a backslash escapes, and a newline only when escaped. */
    private void delimited(int parts, String what) {
        char d = peek();
        if (i >= s.length() || d == '\n' || d == '\\') {
            throw new Failure("the " + what + " command has no delimiter");
        }
        i++;
        for (int part = 0; part < parts; part++) {
            while (i < s.length() && s.charAt(i) != d) {
                if (s.charAt(i) == '\\') {
                    i++;
                } else if (s.charAt(i) == '\n') {
                    throw new Failure("the " + what + " command is not terminated");
                }
                i++;
            }
            if (i >= s.length()) {
                throw new Failure("the " + what + " command is not terminated");
            }
            i++;
        }
    }

    private void endOfCommand() {
        blanks();
        char c = peek();
        if (i < s.length() && c != '\n' && c != ';' && c != '}' && c != '#') {
            throw new Failure("unexpected '" + c + "' after a command at " + i);
        }
    }

    private void digits() {
        while (Character.isDigit(peek())) {
            i++;
        }
    }

    private void blanks() {
        while (i < s.length() && (s.charAt(i) == ' ' || s.charAt(i) == '\t')) {
            i++;
        }
    }

    private void toEndOfLine() {
        while (i < s.length() && s.charAt(i) != '\n') {
            i++;
        }
    }

    private char peek() {
        return i < s.length() ? s.charAt(i) : '\0';
    }
}
