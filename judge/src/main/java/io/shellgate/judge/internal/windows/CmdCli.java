package io.shellgate.judge.internal.windows;

import java.util.Locale;

/** What {@code cmd.exe} runs, from the text of its arguments ({@code /c COMMAND}, {@code /k}, {@code /r}). */
public final class CmdCli {

    /** What the arguments make cmd do. */
    public sealed interface Run {}

    /** Runs {@code command}; {@code delayed} when /v:on turns on {@code !VAR!} expansion. */
    public record Code(String command, boolean delayed) implements Run {}

    /** Starts an interactive session (no /c or /k). */
    public record Interactive() implements Run {}

    /** Arguments shellgate does not understand. */
    public record Unknown(String why) implements Run {}

    private CmdCli() {}

    /** Parses the argument text after the program name. */
    public static Run parse(String args) {
        int i = 0;
        boolean strip = false;
        boolean delayed = false;
        int n = args.length();
        while (i < n) {
            char c = args.charAt(i);
            if (c == ' ' || c == '\t' || c == ',' || c == ';' || c == '=') {
                i++;
                continue;
            }
            if (c != '/' || i + 1 >= n) {
                return new Unknown("cmd expects /c, /k or /r before the command: " + args.substring(i));
            }
            char o = Character.toLowerCase(args.charAt(i + 1));
            if (o == 'c' || o == 'k' || o == 'r') {
                String command = args.substring(i + 2);
                return new Code(stripQuotes(command.stripLeading(), strip), delayed);
            }
            int end = i + 2;
            while (end < n && args.charAt(end) != ' ' && args.charAt(end) != '/' && args.charAt(end) != '\t') {
                end++;
            }
            String opt = args.substring(i + 1, end).toLowerCase(Locale.ROOT);
            switch (opt) {
                case "s" -> strip = true;
                case "q", "d", "a", "u", "x", "y", "e:on", "e:off", "f:on", "f:off", "v:off" -> {
                    // display, AutoRun, encoding and extension switches change how, not what
                }
                case "v:on", "v" -> delayed = true;
                default -> {
                    if (!opt.startsWith("t:")) {
                        return new Unknown("unknown cmd option /" + opt);
                    }
                }
            }
            i = end;
        }
        return new Interactive();
    }

    /**
     * cmd's rule for the quotes around a /c command: kept when there are exactly two, no special
     * characters between them, they enclose a program's file name, and /s was not given; otherwise the first and the last quote go.
     */
    static String stripQuotes(String command, boolean strip) {
        if (!command.startsWith("\"")) {
            return command;
        }
        int quotes = 0;
        for (int i = 0; i < command.length(); i++) {
            if (command.charAt(i) == '"') {
                quotes++;
            }
        }
        int second = command.indexOf('"', 1);
        if (!strip && quotes == 2) {
            String inside = command.substring(1, second);
            boolean special = inside.chars().anyMatch(ch -> "&<>()@^|".indexOf(ch) >= 0);
            String lower = inside.toLowerCase(Locale.ROOT);
            boolean program = lower.endsWith(".exe") || lower.endsWith(".com") || lower.endsWith(".bat") || lower.endsWith(".cmd");
            // cmd keeps them only around the name of an existing program; a quoted command line loses them
            if (!special && inside.indexOf(' ') >= 0 && program) {
                return command;
            }
        }
        int last = command.lastIndexOf('"');
        return last > 0 ? command.substring(1, last) + command.substring(last + 1) : command.substring(1);
    }
}
