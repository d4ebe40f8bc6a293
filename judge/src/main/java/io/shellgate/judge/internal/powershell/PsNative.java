package io.shellgate.judge.internal.powershell;

import io.shellgate.judge.Dialect;
import io.shellgate.judge.Span;
import io.shellgate.judge.internal.windows.SystemPrograms;
import io.shellgate.judge.internal.windows.WindowsChecks;
import io.shellgate.judge.internal.windows.WindowsCommand;
import io.shellgate.judge.internal.windows.WindowsHost;
import io.shellgate.judge.internal.windows.WindowsReads;
import io.shellgate.judge.internal.windows.WindowsRules;
import io.shellgate.judge.internal.windows.WindowsShells;
import io.shellgate.rules.Tier;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * A program PowerShell starts (not a cmdlet, alias or function): PowerShell and cmd are judged
 * again in their dialect, the policy's rules run on it, and the rest is judged as the bash judge
 * judges the same words (read-only list, resolution against the live PATH, trust).
 */
final class PsNative {

    private static final Set<String> RUNS_INPUT = Set.of("bash", "sh", "zsh", "dash", "python", "python3", "node", "perl",
            "ruby", "php");

    private final PowerShellJudge ps;
    private final WindowsHost host;

    PsNative(PowerShellJudge ps) {
        this.ps = ps;
        this.host = ps.host;
    }

    static String baseName(String program) {
        return WindowsShells.baseName(program);
    }

    /** Judges the program {@code name} with the command's arguments; returns whether its output may come from the network. */
    boolean judge(String name, PsAst.CommandCall c, boolean upstream) {
        List<String> argv = new ArrayList<>();
        argv.add(name);
        for (PsAst.Arg a : c.args()) {
            switch (a) {
                case PsAst.Param p -> {
                    String v = p.value() == null ? "" : PsValues.value(p.value(), host);
                    argv.add(v == null ? null : "-" + p.name() + (p.value() == null ? "" : ":" + v));
                }
                case PsAst.Value v -> {
                    for (String value : PsValues.values(v.value(), host)) {
                        // pwsh 7.4 expands a bare ~ for programs too: judge the path it may name
                        boolean bare = v.value() instanceof PsAst.Literal l && !l.quoted();
                        argv.add(bare && value != null && host.home() != null && (value.equals("~") || value.startsWith("~/")
                                || value.startsWith("~\\")) ? host.home() + value.substring(1) : value);
                    }
                }
                case PsAst.StopParsing s -> {
                    host.report(WindowsChecks.DYNAMIC_ARGUMENT, Tier.ASK, name + ": --% passes the rest of the line to the"
                            + " program unparsed, with cmd-style %VARIABLES%", s.span());
                    return false;
                }
            }
        }
        if (argv.contains(null)) {
            host.report(WindowsChecks.DYNAMIC_ARGUMENT, Tier.ASK, name + " gets an argument computed at run time", c.span());
            return PsDotNet.downloader(baseName(name));
        }
        return judgeArgv(argv, c.span(), upstream);
    }

    /** Judges a program and its literal arguments. */
    boolean judgeArgv(List<String> argv, Span span, boolean upstream) {
        String program = argv.getFirst();
        String base = baseName(program);
        if ((program.contains("/") || program.contains("\\"))
                && WindowsReads.check(host, program, ps.cwd, new WindowsReads.Read(base, WindowsReads.Use.RESOLVE, true, false, span))) {
            // a program on a share or a device: it is not run from here unasked
            return false;
        }
        List<String> args = argv.subList(1, argv.size());
        if (base.endsWith(".ps1") || base.endsWith(".psm1") || base.endsWith(".bat") || base.endsWith(".cmd")
                || base.endsWith(".vbs") || base.endsWith(".js")) {
            host.report(WindowsChecks.SCRIPT_FILE, Tier.ASK, "runs the script " + program + ", which shellgate does not read", span);
            return false;
        }
        List<String> options = new ArrayList<>();
        List<String> operands = new ArrayList<>();
        for (String a : args) {
            if (a.length() > 1 && (a.startsWith("/") || a.startsWith("-")) && !a.substring(1).contains("/")) {
                int colon = a.indexOf(':');
                options.add((colon > 0 ? a.substring(0, colon) : a).toLowerCase(java.util.Locale.ROOT));
            } else {
                operands.add(a);
            }
        }
        WindowsRules.check(host, Dialect.POWERSHELL, new WindowsCommand(base, options, operands, span), ps.cwd);
        if (WindowsShells.isWindowsShell(base)) {
            WindowsHost.Program p = host.at(ps.cwd).program(program, false);
            if (!p.trusted()) {
                host.report(WindowsChecks.UNTRUSTED_PROGRAM, Tier.ASK, program + ": " + p.why(), span);
            }
            WindowsShells.run(host.at(ps.cwd), base, args, null, upstream, span);
            return false;
        }
        if (upstream && RUNS_INPUT.contains(base)) {
            WindowsShells.downloadToShell(host, span, "content from the network is piped into " + base);
            return false;
        }
        if (host.windows() && SystemPrograms.covers(base)) {
            // on Windows these names are Windows' own programs (sort.exe /o writes a file), not their Unix namesakes
            WindowsHost.Program p = host.at(ps.cwd).program(program, false);
            if (p.path() == null || !p.trusted()) {
                host.report(WindowsChecks.UNTRUSTED_PROGRAM, Tier.ASK, program + ": " + p.why(), span);
            }
            SystemPrograms.judge(host, ps.cwd, base, args, span);
            return false;
        }
        List<String> words = new ArrayList<>(argv);
        boolean path = program.contains("/") || program.contains("\\");
        words.set(0, path ? program : base);
        host.at(ps.cwd).nativeProgram(words, span);
        return PsDotNet.downloader(base);
    }
}
