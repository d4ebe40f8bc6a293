package io.shellgate.judge.internal.powershell;

import io.shellgate.judge.Dialect;
import io.shellgate.judge.internal.windows.WindowsArgv;
import io.shellgate.judge.internal.windows.WindowsChecks;
import io.shellgate.judge.internal.windows.WindowsHost;
import io.shellgate.judge.internal.windows.WindowsReads;
import io.shellgate.judge.internal.windows.WindowsShells;
import io.shellgate.rules.Tier;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A cmdlet: its arguments bound to parameters as PowerShell binds them (abbreviations,
 * aliases, positions), the policy's rules, then read-only with read-only parameters, or ask.
 */
final class PsCmdletJudge {

    private static final Set<String> PATH_PARAMS = Set.of("Path", "LiteralPath", "FilePath");
    /** Parameters whose value a cmdlet looks up as a path (Get-Command's Name may be one). */
    private static final List<String> RESOLVED_PARAMS = List.of("Path", "LiteralPath", "FilePath", "RelativeBasePath", "Name");
    private static final Set<String> PRINTERS = Set.of("Write-Output", "Write-Host", "Write-Verbose", "Write-Warning",
            "Write-Debug", "Write-Information", "Select-String");

    private final PowerShellJudge ps;
    private final WindowsHost host;
    private final PsCommandJudge commands;

    PsCmdletJudge(PowerShellJudge ps, PsCommandJudge commands) {
        this.ps = ps;
        this.host = ps.host;
        this.commands = commands;
    }

    /** What binding found: parameters by canonical name, and the problems that make the command ask. */
    private static final class Bound {
        final List<String> options = new ArrayList<>();
        final List<String> operands = new ArrayList<>();
        final Map<String, List<PsAst.Expr>> values = new LinkedHashMap<>();
        final List<String> problems = new ArrayList<>();
        final List<String> notReadOnly = new ArrayList<>();
    }

    boolean judge(String cmdlet, PsAst.CommandCall c, boolean piped, boolean upstream, boolean fromExpression) {
        PsCmdlets.Cmdlet spec = PsCmdlets.get(cmdlet);
        Bound b = bind(spec, c);
        List<String> operands = new ArrayList<>(b.operands);
        if (piped && !b.values.containsKey("Path") && !b.values.containsKey("LiteralPath")) {
            // Get-ChildItem C:\ | Remove-Item -Recurse removes what Get-ChildItem listed
            operands.addAll(ps.listed);
        }
        commands.rules(cmdlet, b.options, operands, c.span());
        ps.listed = listing(cmdlet, b);
        boolean downloads = PsDotNet.downloader(cmdlet);
        boolean special = special(cmdlet, c, b, upstream);
        if (spec == null || !spec.readOnly()) {
            if (!special) {
                host.report(WindowsChecks.NOT_READ_ONLY, Tier.ASK, cmdlet + " is not on the read-only list", c.span());
            }
            return downloads;
        }
        if (!b.notReadOnly.isEmpty()) {
            host.report(WindowsChecks.OPTION_NOT_PERMITTED, Tier.ASK, cmdlet + ": the parameter "
                    + String.join(", ", b.notReadOnly) + " is not read-only", c.span());
        }
        b.problems.forEach(p -> host.report(WindowsChecks.OPTION_NOT_PERMITTED, Tier.ASK, cmdlet + ": " + p, c.span()));
        for (List<PsAst.Expr> exprs : b.values.values()) {
            for (PsAst.Expr e : exprs) {
                if (!PsValues.harmless(e, host)) {
                    host.report(WindowsChecks.DYNAMIC_ARGUMENT, Tier.ASK, cmdlet + " gets an argument whose value is"
                            + " computed at run time (" + e.span().of(ps.code) + ")", c.span());
                }
            }
        }
        resolves(cmdlet, b, c);
        if (spec.readsFiles()) {
            reads(cmdlet, c, b, piped && fromExpression);
        }
        if (PRINTERS.contains(cmdlet)) {
            for (PsAst.Arg a : c.args()) {
                if (a instanceof PsAst.Value v && v.value() instanceof PsAst.Literal l && l.quoted()) {
                    host.data(v.span());
                }
            }
        }
        return downloads;
    }

    /** The items an item-listing cmdlet passes down its pipeline, as paths; unknown ones are left out. */
    private List<String> listing(String cmdlet, Bound b) {
        if (!cmdlet.equals("Get-ChildItem") && !cmdlet.equals("Get-Item")) {
            return List.of();
        }
        List<String> paths = new ArrayList<>();
        for (String param : List.of("Path", "LiteralPath")) {
            for (PsAst.Expr e : b.values.getOrDefault(param, List.of())) {
                for (String v : PsValues.values(e, host)) {
                    if (v != null) {
                        paths.add(cmdlet.equals("Get-ChildItem") ? v + "\\*" : v);
                    }
                }
            }
        }
        if (paths.isEmpty() && !b.values.containsKey("Path") && !b.values.containsKey("LiteralPath")) {
            paths.add(cmdlet.equals("Get-ChildItem") ? ".\\*" : ".");
        }
        return paths;
    }

    private Bound bind(PsCmdlets.Cmdlet spec, PsAst.CommandCall c) {
        Bound b = new Bound();
        int position = 0;
        List<PsAst.Arg> args = c.args();
        for (int i = 0; i < args.size(); i++) {
            switch (args.get(i)) {
                case PsAst.Param p -> {
                    PsCmdlets.Param def = spec == null ? null : spec.resolve(p.name());
                    if (def == null) {
                        b.options.add("-" + p.name());
                        if (spec != null) {
                            b.problems.add("-" + p.name() + " is not a parameter shellgate knows (or it is ambiguous)");
                        }
                        if (p.value() != null) {
                            add(b, p.name(), p.value());
                        }
                        continue;
                    }
                    b.options.add("-" + def.name());
                    if (!def.readOnly()) {
                        b.notReadOnly.add("-" + def.name());
                    }
                    PsAst.Expr value = p.value();
                    if (value == null && !def.isSwitch() && i + 1 < args.size() && args.get(i + 1) instanceof PsAst.Value v) {
                        value = v.value();
                        i++;
                    }
                    if (value != null) {
                        add(b, def.name(), value);
                    }
                }
                case PsAst.Value v -> {
                    PsCmdlets.Param def = null;
                    while (spec != null && (def = spec.positional(position)) != null && b.values.containsKey(def.name())) {
                        position++;
                    }
                    if (spec != null && def == null) {
                        b.problems.add("the argument " + v.span().of(ps.code) + " has no parameter to go to");
                    }
                    position++;
                    add(b, def == null ? "" : def.name(), v.value());
                }
                case PsAst.StopParsing s -> b.problems.add("--% passes the rest of the line unparsed");
            }
        }
        return b;
    }

    private void add(Bound b, String param, PsAst.Expr value) {
        b.values.computeIfAbsent(param, k -> new ArrayList<>()).add(value);
        if (!(value instanceof PsAst.ScriptBlock)) {
            b.operands.addAll(PsValues.values(value, host, ps.assigned));
        }
    }

    /**
     * Paths a cmdlet looks up ({@code Test-Path}, {@code Resolve-Path}, {@code Set-Location}...):
     * a network share or a device asks even where nothing is read. Split-Path and Join-Path only
     * work on the text unless they are told to -Resolve.
     */
    private void resolves(String cmdlet, Bound b, PsAst.CommandCall c) {
        if ((cmdlet.equals("Split-Path") || cmdlet.equals("Join-Path")) && !b.options.contains("-Resolve")) {
            return;
        }
        for (String param : RESOLVED_PARAMS) {
            if (param.equals("Name") && !cmdlet.equals("Get-Command")) {
                continue;
            }
            for (PsAst.Expr e : b.values.getOrDefault(param, List.of())) {
                for (String v : PsValues.values(e, host)) {
                    if (v != null) {
                        commands.read(v, new WindowsReads.Read(cmdlet, WindowsReads.Use.RESOLVE, true, false, c.span()));
                    }
                }
            }
        }
    }

    /** Checks the paths a file-reading cmdlet reads. */
    private void reads(String cmdlet, PsAst.CommandCall c, Bound b, boolean pathsFromInput) {
        boolean any = false;
        boolean recursive = b.options.contains("-Recurse") || b.options.contains("-Depth");
        for (String param : PATH_PARAMS) {
            for (PsAst.Expr e : b.values.getOrDefault(param, List.of())) {
                any = true;
                for (String v : PsValues.values(e, host)) {
                    // Get-ChildItem lists what a pattern matches (names); the others read each match
                    boolean wildcards = !cmdlet.equals("Get-ChildItem") && !param.equals("LiteralPath");
                    commands.read(v, new WindowsReads.Read(cmdlet, recursive ? WindowsReads.Use.RECURSIVE : WindowsReads.Use.READ,
                            true, wildcards, c.span()));
                }
            }
        }
        if (!any && pathsFromInput) {
            host.report(WindowsChecks.DYNAMIC_ARGUMENT, Tier.ASK, cmdlet + " reads the files or paths its pipeline input"
                    + " names, which shellgate does not know", c.span());
        } else if (!any) {
            // without a path it reads the current location, which a cd may have moved to Env: or HKCU:
            commands.read(".", new WindowsReads.Read(cmdlet, recursive ? WindowsReads.Use.RECURSIVE : WindowsReads.Use.READ,
                    true, false, c.span()));
        }
    }

    /** Cmdlets judged beyond their name; returns whether it already said why it asks. */
    private boolean special(String cmdlet, PsAst.CommandCall c, Bound b, boolean upstream) {
        switch (cmdlet) {
            case "Invoke-Expression" -> {
                List<PsAst.Expr> code = b.values.getOrDefault("Command", List.of());
                if (upstream || code.stream().anyMatch(PsDownloads::in)) {
                    WindowsShells.downloadToShell(host, c.span(), "Invoke-Expression runs content downloaded from the network");
                    return true;
                }
                host.report(WindowsChecks.DYNAMIC_CODE, Tier.ASK, "Invoke-Expression runs a string as PowerShell code", c.span());
                // the string runs in this session: where it leaves the location is not followed
                String from = ps.cwd;
                ps.cwd = null;
                if (code.size() == 1) {
                    String text = PsValues.value(code.getFirst(), host);
                    if (text != null) {
                        host.at(from).nested(text, Dialect.POWERSHELL, ps.windowsPowerShell, c.span());
                    }
                }
                return true;
            }
            case "Set-Location", "Push-Location" -> {
                List<PsAst.Expr> to = new ArrayList<>(b.values.getOrDefault("Path", List.of()));
                to.addAll(b.values.getOrDefault("LiteralPath", List.of()));
                String dir = to.size() == 1 ? PsValues.value(to.getFirst(), host) : null;
                if (cmdlet.equals("Push-Location")) {
                    ps.pushed.push(ps.cwd == null ? "" : ps.cwd);
                }
                // Push-Location with no path only saves the location
                if (!to.isEmpty() || cmdlet.equals("Set-Location")) {
                    ps.cwd = ps.location(dir);
                }
                return false;
            }
            case "Pop-Location" -> {
                String back = ps.pushed.isEmpty() || b.values.containsKey("StackName") ? null : ps.pushed.pop();
                ps.cwd = back == null || back.isEmpty() ? null : back;
                return false;
            }
            case "Start-Process" -> {
                host.report(WindowsChecks.NOT_READ_ONLY, Tier.ASK, "Start-Process starts a program or opens a document", c.span());
                List<PsAst.Expr> file = b.values.getOrDefault("FilePath", List.of());
                String program = file.size() == 1 ? PsValues.value(file.getFirst(), host) : null;
                List<String> argv = new ArrayList<>();
                argv.add(program);
                for (PsAst.Expr e : b.values.getOrDefault("ArgumentList", List.of())) {
                    for (String v : PsValues.values(e, host)) {
                        argv.addAll(v == null ? Collections.singletonList(null) : WindowsArgv.split(v));
                    }
                }
                if (!argv.contains(null)) {
                    commands.natives.judgeArgv(argv, c.span(), false);
                }
                return true;
            }
            case "ForEach-Object" -> {
                for (String param : List.of("Process", "MemberName", "Begin", "End")) {
                    for (PsAst.Expr e : b.values.getOrDefault(param, List.of())) {
                        if (!(e instanceof PsAst.ScriptBlock) && !PsDotNet.pureInstanceMethod(PsValues.value(e, host))) {
                            host.report(WindowsChecks.DOTNET_CALL, Tier.ASK, "ForEach-Object " + e.span().of(ps.code)
                                    + " calls a method or reads a property on every input object", c.span());
                        }
                    }
                }
                return false;
            }
            default -> {
                return false;
            }
        }
    }
}
