package io.shellgate.judge.internal.analysis.builtins;

import io.shellgate.judge.Dialect;
import io.shellgate.judge.internal.analysis.model.Field;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * A shell's own command line, read the way that shell reads it: bash (GNU long options first,
 * exactly spelled; then letters, where {@code -o} and {@code -O} take the next word), zsh
 * ({@code -o} takes the rest of its word or the next one, {@code --name} sets an option, {@code -b}
 * ends the options), sh and ksh (the POSIX letters, {@code -o} taking the next word). It tells
 * what the shell will run (the {@code -c} string, a script file, its standard input, or nothing
 * for {@code --version}) and which options it sets. An option outside the grammar is a problem:
 * {@code zsh -onotify -c CODE} must not be read as {@code -o} taking {@code -c}.
 */
public final class ShellCommandLine {

    public enum Family { BASH, ZSH, POSIX, KSH }

    /** What the shell runs. */
    public enum Mode {
        /** The {@code -c} string. */
        COMMAND,
        /** A script file. */
        FILE,
        /** Its standard input ({@code -s}, {@code -}, {@code --}, or no operand). */
        STDIN,
        /** Nothing: it prints its version or usage and exits. */
        QUERY
    }

    /** An option the shell sets at start: a name in its family's terms, on or off. */
    public record Option(String name, boolean on, boolean shopt) {}

    /**
     * @param code the {@code -c} string or the script file, or null
     * @param args what follows it ({@code $0} and the positional parameters for {@code -c};
     *     the positional parameters otherwise)
     * @param noExec whether the shell only reads and checks the code ({@code -n}, {@code -D})
     * @param startup a startup file it reads first ({@code --rcfile F}), or null
     * @param dialect the dialect the code is read in ({@code zsh --emulate sh} reads sh)
     * @param problem why the command line is not understood, or null
     */
    public record Parsed(Mode mode, Field code, List<Field> args, List<Option> options, boolean noExec, String startup,
            Dialect dialect, String problem) {

        static Parsed problem(String why) {
            return new Parsed(Mode.QUERY, null, List.of(), List.of(), false, null, null, why);
        }
    }

    private static final Set<String> BASH_LONG = Set.of("--debug", "--dump-po-strings", "--dump-strings", "--login",
            "--noediting", "--noprofile", "--norc", "--posix", "--pretty-print", "--restricted", "--verbose");
    private static final Set<String> BASH_LONG_NOEXEC = Set.of("--dump-po-strings", "--dump-strings", "--pretty-print");
    /** Letters that are not set options: command, stdin, interactive, login, restricted, dump strings. */
    private static final String BASH_OTHER = "csilrD";
    private static final String POSIX_OTHER = "csil";
    private static final String KSH_OTHER = "csilr";

    private ShellCommandLine() {}

    public static Family family(String program, Dialect dialect) {
        return switch (program) {
            case "bash", "rbash", "shellgate" -> Family.BASH;
            case "zsh" -> Family.ZSH;
            case "ksh", "ksh93", "mksh", "pdksh", "lksh" -> Family.KSH;
            case "sh", "dash", "ash", "posh", "yash" -> Family.POSIX;
            default -> dialect == Dialect.ZSH ? Family.ZSH : dialect == Dialect.BASH ? Family.BASH : Family.POSIX;
        };
    }

    public static Parsed parse(Family family, Dialect dialect, List<Field> args) {
        List<Option> options = new ArrayList<>();
        boolean command = false;
        boolean stdin = false;
        boolean noExec = false;
        String startup = null;
        Dialect read = dialect;
        int i = 0;
        if (family == Family.BASH) {
            // GNU long options come first, spelled out in full
            for (; i < args.size(); i++) {
                String t = args.get(i).text();
                if (!t.startsWith("--") || t.equals("--")) {
                    break;
                }
                if (t.equals("--version") || t.equals("--help")) {
                    return new Parsed(Mode.QUERY, null, List.of(), List.of(), false, null, dialect, null);
                }
                if (t.equals("--rcfile") || t.equals("--init-file")) {
                    if (i + 1 >= args.size()) {
                        return Parsed.problem(t + " needs a file");
                    }
                    startup = args.get(++i).display();
                } else if (t.equals("--debugger")) {
                    startup = "the debugger's start file";
                } else if (BASH_LONG.contains(t)) {
                    noExec |= BASH_LONG_NOEXEC.contains(t);
                    if (t.equals("--posix")) {
                        options.add(new Option("posix", true, false));
                    }
                } else {
                    return Parsed.problem("the option " + args.get(i).display() + " is not one bash has");
                }
            }
        }
        for (; i < args.size(); i++) {
            Field f = args.get(i);
            String t = f.text();
            if (!f.isLiteral() && (t.isEmpty() || t.charAt(0) == Field.HOLE || t.charAt(0) == '-' || t.charAt(0) == '+')) {
                return Parsed.problem("the option " + f.display() + " is computed at run time");
            }
            if (t.equals("--") || t.equals("-")) {
                i++;
                break;
            }
            if (family == Family.ZSH && t.startsWith("--")) {
                String name = t.substring(2);
                if (name.equals("version") || name.equals("help")) {
                    return new Parsed(Mode.QUERY, null, List.of(), List.of(), false, null, dialect, null);
                }
                if (name.equals("emulate")) {
                    if (i + 1 >= args.size()) {
                        return Parsed.problem("--emulate needs a mode");
                    }
                    String mode = args.get(++i).text();
                    read = mode.equals("zsh") ? Dialect.ZSH : mode.equals("sh") || mode.equals("ksh") ? Dialect.SH : null;
                    if (read == null) {
                        return Parsed.problem("--emulate " + mode + " is not a mode shellgate judges");
                    }
                    continue;
                }
                options.add(new Option(name, true, false));
                continue;
            }
            if (!(t.startsWith("-") || t.startsWith("+")) || t.length() < 2) {
                break;
            }
            boolean on = t.charAt(0) == '-';
            boolean end = false;
            for (int j = 1; j < t.length(); j++) {
                char c = t.charAt(j);
                if (c == 'c') {
                    command = true;
                } else if (c == 's') {
                    stdin = true;
                } else if (c == 'n' && on) {
                    noExec = true;
                    options.add(new Option("noexec", true, false));
                } else if (c == 'o' || c == 'O' && family == Family.BASH) {
                    String name;
                    if (family == Family.ZSH && j + 1 < t.length()) {
                        name = t.substring(j + 1);
                        j = t.length();
                    } else if (i + 1 < args.size()) {
                        Field value = args.get(++i);
                        if (!value.isLiteral()) {
                            return Parsed.problem("the option -" + c + " " + value.display() + " is computed at run time");
                        }
                        name = value.text();
                    } else {
                        // bash -o alone lists the options and reads its input as usual
                        continue;
                    }
                    options.add(new Option(name, on, c == 'O'));
                } else if (c == 'b' && family == Family.ZSH) {
                    end = true;
                } else if (c == 'D' && family == Family.BASH) {
                    noExec = true;
                } else if (other(family).indexOf(c) >= 0) {
                    // interactive, login, restricted: they change startup files and limits, not the code
                } else {
                    String name = ShellOptions.letter(family == Family.ZSH ? Dialect.ZSH : family == Family.BASH ? Dialect.BASH
                            : Dialect.SH, c);
                    if (name == null) {
                        return Parsed.problem("-" + Field.literal(String.valueOf(c)).display() + " is not an option shellgate knows for"
                                + " this shell");
                    }
                    options.add(new Option(name, on, false));
                }
            }
            if (end) {
                i++;
                break;
            }
        }
        List<Field> rest = List.copyOf(args.subList(Math.min(i, args.size()), args.size()));
        if (command) {
            if (rest.isEmpty()) {
                return Parsed.problem("-c without a command string");
            }
            return new Parsed(Mode.COMMAND, rest.getFirst(), rest.subList(1, rest.size()), options, noExec, startup, read, null);
        }
        if (stdin || rest.isEmpty()) {
            return new Parsed(Mode.STDIN, null, rest, options, noExec, startup, read, null);
        }
        return new Parsed(Mode.FILE, rest.getFirst(), rest.subList(1, rest.size()), options, noExec, startup, read, null);
    }

    private static String other(Family family) {
        return switch (family) {
            case BASH -> BASH_OTHER;
            case ZSH -> "";
            case KSH -> KSH_OTHER;
            case POSIX -> POSIX_OTHER;
        };
    }

    /** What an option given at start does, in the family's terms. */
    public static ShellOptions.Effect effect(Family family, Option o) {
        if (o.shopt()) {
            return ShellOptions.shopt(o.name(), o.on());
        }
        return family == Family.ZSH ? ShellOptions.zshOption(o.name(), o.on()) : ShellOptions.bashOption(o.name(), o.on());
    }
}
