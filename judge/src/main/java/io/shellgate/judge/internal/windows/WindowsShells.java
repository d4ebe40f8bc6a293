package io.shellgate.judge.internal.windows;

import io.shellgate.judge.Dialect;
import io.shellgate.judge.Span;
import io.shellgate.rules.Rule;
import io.shellgate.rules.Tier;
import java.util.List;
import java.util.Locale;

/**
 * {@code powershell}, {@code pwsh} and {@code cmd} started by a command line, in any dialect:
 * the code they are handed is judged in their dialect; encoded scripts are decoded, judged and
 * never allowed; script files, standard input and unknown options ask.
 */
public final class WindowsShells {

    private WindowsShells() {}

    /** The program name without directories, {@code .exe} or {@code .com}, in lower case. */
    public static String baseName(String program) {
        String p = program.replace('\\', '/');
        String base = p.substring(p.lastIndexOf('/') + 1).toLowerCase(Locale.ROOT);
        return base.endsWith(".exe") || base.endsWith(".com") ? base.substring(0, base.length() - 4) : base;
    }

    /** Whether {@code base} names PowerShell or cmd. */
    public static boolean isWindowsShell(String base) {
        return base.equals("powershell") || base.equals("pwsh") || base.equals("cmd");
    }

    /**
     * Judges {@code base} run with {@code args}.
     *
     * @param argText the argument text as cmd sees it (the raw rest of a cmd command line), or
     *     null to join {@code args}
     * @param upstream whether its standard input may come from the network
     */
    public static void run(WindowsHost host, String base, List<String> args, String argText, boolean upstream, Span span) {
        if (base.equals("cmd")) {
            switch (CmdCli.parse(argText != null ? argText : WindowsArgv.join(args))) {
                case CmdCli.Code code -> host.nested(code.command(), Dialect.CMD, false, span);
                case CmdCli.Interactive i -> stdin(host, "cmd", upstream, span);
                case CmdCli.Unknown u -> host.report(WindowsChecks.DYNAMIC_CODE, Tier.ASK, u.why(), span);
            }
            return;
        }
        boolean legacy = base.equals("powershell");
        switch (PowerShellCli.parse(args, legacy)) {
            case PowerShellCli.Code code -> {
                if (code.encoded()) {
                    host.report(WindowsChecks.ENCODED_COMMAND, Tier.ASK, base + " runs a base64-encoded script, which hides"
                            + " what it does; shellgate decoded and judged it, but never allows it", span);
                }
                host.nested(code.code(), Dialect.POWERSHELL, legacy, span);
            }
            case PowerShellCli.File f -> host.report(WindowsChecks.SCRIPT_FILE, Tier.ASK, base + " runs the script "
                    + f.file() + ", which shellgate does not read", span);
            case PowerShellCli.Stdin s -> stdin(host, base, upstream, span);
            case PowerShellCli.Unknown u -> host.report(WindowsChecks.DYNAMIC_CODE, Tier.ASK, base + ": " + u.why(), span);
        }
    }

    private static void stdin(WindowsHost host, String program, boolean upstream, Span span) {
        if (upstream) {
            downloadToShell(host, span, "content from the network is piped into " + program);
        } else {
            host.report(WindowsChecks.STDIN_CODE, Tier.ASK, program + " runs the commands it reads from its input or starts"
                    + " an interactive session, which shellgate cannot see", span);
        }
    }

    /** The policy's download-to-shell rule, or an ask when the policy disabled it. */
    public static void downloadToShell(WindowsHost host, Span span, String what) {
        Rule rule = host.detector("download-to-shell");
        if (rule != null) {
            host.report(rule.id(), rule.tier(), what + ": " + WindowsRules.message(rule), span);
        } else {
            host.report(WindowsChecks.DYNAMIC_CODE, Tier.ASK, what, span);
        }
    }
}
