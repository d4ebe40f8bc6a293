package io.shellgate.judge.internal.analysis;

import io.shellgate.judge.Dialect;
import io.shellgate.judge.internal.syntax.Command;
import io.shellgate.judge.internal.windows.WindowsShells;
import io.shellgate.rules.Tier;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * A shell started by the line: {@code bash -c SCRIPT} is judged as SCRIPT; a shell reading its
 * input runs what the pipe, heredoc or here-string feeds it; a script file is not read.
 */
final class Shells {

    private static final Set<String> LONG_FLAGS = Set.of("--login", "--noprofile", "--norc", "--posix", "--noediting",
            "--restricted", "--verbose", "--help", "--version", "--debug", "--debugger", "--dump-strings",
            "--pretty-print", "--no-rcs", "--no-globalrcs", "--emulate");
    private static final Set<String> LONG_VALUES = Set.of("--rcfile", "--init-file");

    private Shells() {}

    static void handle(Analyzer a, CommandJudge.Invocation inv, String program, String dialectName) {
        List<Field> args = inv.argv.subList(1, inv.argv.size());
        Dialect dialect = Dialect.parse(dialectName);
        if (dialect != null && !dialect.isPosix()) {
            windows(a, inv, program, args);
            return;
        }
        boolean command = false;
        boolean noExec = false;
        boolean stdinMode = false;
        String startupFile = null;
        int i = 0;
        for (; i < args.size(); i++) {
            Field f = args.get(i);
            String t = f.plain();
            if (!f.isLiteral() && t.startsWith("-")) {
                a.add(Checks.DYNAMIC_CODE, Tier.ASK, program + ": the option " + f.display() + " is computed at run time", inv.span());
                return;
            }
            if (!f.isLiteral()) {
                // computed text where an operand belongs: the script (with -c) or a script file
                break;
            }
            if (t.equals("--") || t.equals("-")) {
                i++;
                break;
            }
            if (t.startsWith("--")) {
                String name = t.contains("=") ? t.substring(0, t.indexOf('=')) : t;
                if (LONG_VALUES.contains(name)) {
                    startupFile = t.contains("=") ? t.substring(t.indexOf('=') + 1) : i + 1 < args.size() ? args.get(++i).display() : "";
                } else if (!LONG_FLAGS.contains(name)) {
                    a.add(Checks.DYNAMIC_CODE, Tier.ASK, program + ": unknown option " + name, inv.span());
                    return;
                }
                continue;
            }
            if ((t.startsWith("-") || t.startsWith("+")) && t.length() > 1) {
                for (int j = 1; j < t.length(); j++) {
                    char c = t.charAt(j);
                    switch (c) {
                        case 'c' -> command = true;
                        case 'n' -> noExec = t.charAt(0) == '-';
                        case 's' -> stdinMode = true;
                        case 'o', 'O' -> i++;
                        default -> {
                            // other single-letter shell options change how it runs, not what
                        }
                    }
                }
                continue;
            }
            break;
        }
        List<Field> rest = args.subList(Math.min(i, args.size()), args.size());
        if (dialect == null) {
            a.add(Checks.SHELL_NOT_JUDGED, Tier.ASK, program + " scripts are not judged by shellgate", inv.span());
            if (command && !rest.isEmpty() && a.downloads(rest.getFirst())) {
                Detectors.downloadToShell(a, inv.span(), program + " runs code downloaded from the network");
            }
            return;
        }
        if (startupFile != null) {
            a.add(Checks.SCRIPT_FILE, Tier.ASK, program + " runs the startup file " + startupFile + ", which shellgate does not read",
                    inv.span());
        }
        if (noExec && !command) {
            // -n: read and check syntax only
            if (!rest.isEmpty()) {
                Sensitive.checkRead(a, rest.getFirst(), inv.scope, inv.span(), "reads");
            }
            return;
        }
        if (command) {
            if (rest.isEmpty()) {
                a.add(Checks.DYNAMIC_CODE, Tier.ASK, program + " -c without a script", inv.span());
                return;
            }
            List<Field> positional = new ArrayList<>(rest.subList(Math.min(2, rest.size()), rest.size()));
            Special.code(a, inv, rest.getFirst(), dialect, Special.child(inv, dialect, positional), program + " -c");
            return;
        }
        if (!rest.isEmpty() && !stdinMode) {
            Field script = rest.getFirst();
            if (a.downloads(script)) {
                Detectors.downloadToShell(a, inv.span(), program + " runs a script downloaded from the network");
            } else {
                a.add(Checks.SCRIPT_FILE, Tier.ASK, program + " runs the script " + script.display()
                        + ", which shellgate does not read", inv.span());
            }
            return;
        }
        stdin(a, inv, program, dialect);
    }

    /** PowerShell or cmd started from bash: their code is judged in their dialect. */
    private static void windows(Analyzer a, CommandJudge.Invocation inv, String program, List<Field> args) {
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
    static void stdin(Analyzer a, CommandJudge.Invocation inv, String program, Dialect dialect) {
        Stdin in = inv.stdin;
        if (in.downloads()) {
            Detectors.downloadToShell(a, inv.span(), "content from the network is piped into " + program);
            return;
        }
        if (in.literal() != null && dialect != null) {
            a.subscript(in.literal(), dialect, Special.child(inv, dialect, null), inv.span());
            return;
        }
        String echoed = echoed(in);
        if (echoed != null && dialect != null) {
            a.subscript(echoed, dialect, Special.child(inv, dialect, null), inv.span());
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

    /** The text {@code echo 'ls' | sh} feeds the shell, when the pipe is one echo of literal words. */
    private static String echoed(Stdin in) {
        if (in.upstream().size() != 1 || !(in.upstream().getFirst() instanceof Command.Simple s) || !s.redirects().isEmpty()
                || s.words().isEmpty() || !"echo".equals(s.words().getFirst().literal())) {
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
