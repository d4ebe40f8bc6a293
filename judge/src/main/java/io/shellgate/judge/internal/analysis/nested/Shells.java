package io.shellgate.judge.internal.analysis.nested;

import io.shellgate.judge.Dialect;
import io.shellgate.judge.internal.analysis.builtins.ShellCommandLine;
import io.shellgate.judge.internal.analysis.builtins.ShellOptions;
import io.shellgate.judge.internal.analysis.model.Checks;
import io.shellgate.judge.internal.analysis.model.Field;
import io.shellgate.judge.internal.analysis.model.Scope;
import io.shellgate.judge.internal.analysis.model.Stdin;
import io.shellgate.judge.internal.analysis.walk.Analyzer;
import io.shellgate.judge.internal.analysis.walk.Detectors;
import io.shellgate.judge.internal.analysis.walk.Invocation;
import io.shellgate.judge.internal.analysis.walk.NestedCode;
import io.shellgate.judge.internal.analysis.walk.Sensitive;
import io.shellgate.judge.internal.syntax.Command;
import io.shellgate.judge.internal.windows.WindowsShells;
import io.shellgate.rules.Tier;
import java.util.ArrayList;
import java.util.List;

/**
 * A shell started by the line: {@code bash -c SCRIPT} is judged as SCRIPT; a shell reading its
 * input runs what the pipe, heredoc or here-string feeds it; a script file is not read.
 */
final class Shells {

    private Shells() {}

    static void handle(Analyzer a, Invocation inv, String program, String dialectName) {
        List<Field> args = inv.argv.subList(1, inv.argv.size());
        Dialect dialect = Dialect.parse(dialectName);
        if (dialect != null && !dialect.isPosix()) {
            windows(a, inv, program, args);
            return;
        }
        if (dialect == null) {
            a.add(Checks.SHELL_NOT_JUDGED, Tier.ASK, program + " scripts are not judged by shellgate", inv.span());
            if (args.stream().anyMatch(a::downloads) || inv.stdin.downloads()) {
                Detectors.downloadToShell(a, inv.span(), program + " runs code downloaded from the network");
            }
            return;
        }
        ShellCommandLine.Family family = ShellCommandLine.family(program, dialect);
        ShellCommandLine.Parsed p = ShellCommandLine.parse(family, dialect, args);
        if (p.problem() != null) {
            a.add(Checks.DYNAMIC_CODE, Tier.ASK, program + ": " + p.problem() + ", so shellgate cannot tell what it runs",
                    inv.span());
            if (args.stream().anyMatch(a::downloads) || inv.stdin.downloads()) {
                Detectors.downloadToShell(a, inv.span(), program + " runs code downloaded from the network");
            }
            return;
        }
        if (p.mode() == ShellCommandLine.Mode.QUERY) {
            return;
        }
        if (p.startup() != null) {
            a.add(Checks.SCRIPT_FILE, Tier.ASK, program + " runs the startup file " + p.startup() + ", which shellgate does not read",
                    inv.span());
        }
        Dialect read = p.dialect();
        switch (p.mode()) {
            case COMMAND -> {
                Scope child = child(a, inv, program, family, p, new ArrayList<>(p.args().subList(Math.min(1, p.args().size()),
                        p.args().size())));
                NestedCode.code(a, inv, p.code(), read, child, program + " -c");
            }
            case FILE -> {
                if (p.noExec()) {
                    // -n: reads the script and checks its syntax, runs nothing
                    Sensitive.checkRead(a, p.code(), inv.scope, inv.span(), "reads");
                } else if (a.downloads(p.code())) {
                    Detectors.downloadToShell(a, inv.span(), program + " runs a script downloaded from the network");
                } else if (systemProgram(p.code(), p.args())) {
                    // a system program that is a shell script (which, lsb_release, zgrep): the kernel starts it as
                    // `sh /usr/bin/NAME ARGS` from its first line when a program runs it without a shell, so this is
                    // the program NAME itself, judged as what it is
                    Scope child = child(a, inv, program, family, p, new ArrayList<>(p.args()));
                    StringBuilder text = new StringBuilder(quoted(p.code().plain()));
                    for (Field arg : p.args()) {
                        text.append(' ').append(quoted(arg.plain()));
                    }
                    a.subscript(text.toString(), read, child, inv.span());
                } else {
                    a.add(Checks.SCRIPT_FILE, Tier.ASK, program + " runs the script " + p.code().display()
                            + ", which shellgate does not read", inv.span());
                }
            }
            case STDIN -> {
                if (!p.noExec()) {
                    stdin(a, inv, program, read, child(a, inv, program, family, p, p.args().isEmpty() ? null : p.args()));
                }
            }
            case QUERY -> {
                // handled above
            }
        }
    }

    /** Directories whose programs are the system's own: a script there is the program of its name. */
    private static final List<String> SYSTEM_BINS = List.of("/bin/", "/usr/bin/", "/sbin/", "/usr/sbin/");

    /** Whether the script is a program directly in a system directory, and it and its operands are known text. */
    private static boolean systemProgram(Field script, List<Field> args) {
        if (!script.isLiteral() || script.expanded() || args.stream().anyMatch(f -> !f.isLiteral() || f.expanded())) {
            return false;
        }
        String path = script.plain();
        for (String dir : SYSTEM_BINS) {
            if (path.startsWith(dir)) {
                String name = path.substring(dir.length());
                return !name.isEmpty() && name.indexOf('/') < 0 && !name.equals(".") && !name.equals("..");
            }
        }
        return false;
    }

    /** A word in single quotes. */
    private static String quoted(String s) {
        return "'" + s.replace("'", "'\\''") + "'";
    }

    /** The new shell's scope: the command's environment, and the options it was started with. */
    private static Scope child(Analyzer a, Invocation inv, String program, ShellCommandLine.Family family,
            ShellCommandLine.Parsed p, List<Field> positional) {
        Scope child = NestedCode.child(inv, p.dialect(), positional);
        for (ShellCommandLine.Option o : p.options()) {
            ShellOptions.apply(a, child, ShellCommandLine.effect(family, o), program + " " + (o.on() ? "-" : "+")
                    + (o.shopt() ? "O " : "o ") + o.name(), inv.span());
        }
        return child;
    }

    /** printf's backslash escapes in a format ({@code \n}, {@code \t}, {@code \\}); null for any other. */
    private static String printfEscapes(String format) {
        StringBuilder sb = new StringBuilder(format.length());
        for (int i = 0; i < format.length(); i++) {
            char c = format.charAt(i);
            if (c != '\\') {
                sb.append(c);
                continue;
            }
            if (++i >= format.length()) {
                return null;
            }
            switch (format.charAt(i)) {
                case 'n' -> sb.append('\n');
                case 't' -> sb.append('\t');
                case '\\' -> sb.append('\\');
                case '\'' -> sb.append('\'');
                case '"' -> sb.append('"');
                default -> {
                    return null;
                }
            }
        }
        return sb.toString();
    }

    /** PowerShell or cmd started from bash: their code is judged in their dialect. */
    private static void windows(Analyzer a, Invocation inv, String program, List<Field> args) {
        List<String> words = new ArrayList<>();
        for (Field f : args) {
            if (!f.isLiteral() || f.expanded()) {
                a.add(Checks.DYNAMIC_CODE, Tier.ASK, program + " gets an argument computed at run time (" + f.display() + ")",
                        inv.span());
                return;
            }
            words.add(f.plain());
        }
        String base = WindowsShells.baseName(program);
        WindowsShells.run(WindowsBridge.fromBash(a, inv), base.equals("cmd") ? "cmd" : base.startsWith("pwsh") ? "pwsh"
                : "powershell", words, null, inv.stdin.downloads(), inv.span());
    }

    /** A shell or interpreter that runs what it reads on standard input. */
    static void stdin(Analyzer a, Invocation inv, String program, Dialect dialect) {
        stdin(a, inv, program, dialect, dialect == null ? null : NestedCode.child(inv, dialect, null));
    }

    /** The same, in the scope of the new shell. */
    static void stdin(Analyzer a, Invocation inv, String program, Dialect dialect, Scope child) {
        Stdin in = inv.stdin;
        if (in.downloads()) {
            Detectors.downloadToShell(a, inv.span(), "content from the network is piped into " + program);
            return;
        }
        if (in.literal() != null && dialect != null) {
            a.subscript(in.literal(), dialect, child, inv.span());
            return;
        }
        String echoed = echoed(in);
        if (echoed != null && dialect != null) {
            a.subscript(echoed, dialect, child, inv.span());
            return;
        }
        if (in.isSupplied()) {
            a.add(Checks.STDIN_CODE, Tier.ASK, program + " runs the commands it reads from its input, which shellgate cannot see",
                    inv.span());
        } else {
            a.add(Checks.STDIN_CODE, Tier.ASK, program + " starts an interactive session whose commands shellgate does not judge",
                    inv.span());
        }
    }

    /**
     * The text {@code echo 'ls' | sh} or {@code printf 'ls\n' | sh} feeds the shell, when the pipe
     * is one echo of literal words or one printf of a literal format without conversions.
     */
    private static String echoed(Stdin in) {
        if (in.upstream().size() != 1 || !(in.upstream().getFirst() instanceof Command.Simple s) || !s.redirects().isEmpty()
                || s.words().isEmpty()) {
            return null;
        }
        if ("printf".equals(s.words().getFirst().literal())) {
            String format = s.words().size() == 2 ? s.words().get(1).literal() : null;
            return format == null || format.startsWith("-") || format.indexOf('%') >= 0 ? null : printfEscapes(format);
        }
        if (!"echo".equals(s.words().getFirst().literal())) {
            return null;
        }
        StringBuilder sb = new StringBuilder();
        for (int i = 1; i < s.words().size(); i++) {
            String w = s.words().get(i).literal();
            if (w == null || i == 1 && w.startsWith("-")) {
                return null;
            }
            sb.append(i > 1 ? " " : "").append(w);
        }
        return sb.toString();
    }
}
