package io.shellgate.judge.internal.powershell;

import io.shellgate.judge.Dialect;
import io.shellgate.judge.internal.windows.WindowsArgv;
import io.shellgate.judge.internal.windows.WindowsChecks;
import io.shellgate.judge.internal.windows.WindowsHost;
import io.shellgate.judge.internal.windows.WindowsPaths;
import io.shellgate.judge.internal.windows.WindowsShells;
import io.shellgate.rules.Tier;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A cmdlet: its arguments bound to parameters as PowerShell binds them (abbreviations,
 * aliases, positions), the policy's rules, then read-only with read-only parameters, or ask.
 */
final class PsCmdletJudge {

    private static final Set<String> PRINTERS = Set.of("Write-Output", "Write-Host", "Write-Verbose", "Write-Warning",
            "Write-Debug", "Write-Information", "Select-String");

    private static final List<String> NAMING_PARAMS = List.of("OutVariable", "ErrorVariable", "WarningVariable",
            "InformationVariable", "PipelineVariable");

    private final PowerShellJudge ps;
    private final WindowsHost host;
    private final PsCommandJudge commands;
    private final PsReads reads;

    PsCmdletJudge(PowerShellJudge ps, PsCommandJudge commands) {
        this.ps = ps;
        this.host = ps.host;
        this.commands = commands;
        this.reads = new PsReads(ps, commands);
    }

    /**
     * Judges a cmdlet that reads {@code input} from the pipeline; returns what it passes on, and
     * whether that may be content from the network.
     */
    PsCommandJudge.Stage judge(String cmdlet, PsAst.CommandCall c, PsFlow input, boolean upstream) {
        PsCmdlets.Cmdlet spec = PsCmdlets.get(cmdlet);
        PsBinding b = PsBinding.bind(spec, c, ps);
        List<String> operands = new ArrayList<>(b.operands);
        if (!b.hasPath()) {
            // Get-ChildItem C:\ | Remove-Item -Recurse removes what Get-ChildItem listed
            operands.addAll(PsFlow.listed(input, spec));
        }
        commands.rules(cmdlet, b.options, operands, c.span());
        variables(b, c);
        boolean downloads = PsDotNet.downloader(cmdlet);
        PsFlow output = PsPipeline.output(cmdlet, b, input, ps);
        boolean special = special(cmdlet, c, b, input, upstream);
        if (spec == null || !spec.readOnly()) {
            if (!special) {
                host.report(WindowsChecks.NOT_READ_ONLY, Tier.ASK, cmdlet + " is not on the read-only list", c.span());
            }
            return new PsCommandJudge.Stage(downloads, output);
        }
        if (input instanceof PsFlow.Objects o) {
            // an object's property binds a parameter by name as a written argument would: {"Credential": ...} | Get-Content
            Map<String, List<String>> piped = PsBinding.byPropertyName(spec, o.properties(), b.values.keySet());
            spec.params().stream().filter(p -> piped.containsKey(p.name()) && !p.readOnly())
                    .forEach(p -> b.notReadOnly.add("-" + p.name() + " (from the pipeline objects' property)"));
        }
        if (!b.notReadOnly.isEmpty()) {
            host.report(WindowsChecks.OPTION_NOT_PERMITTED, Tier.ASK, cmdlet + ": the parameter "
                    + String.join(", ", b.notReadOnly) + " is not read-only", c.span());
        }
        if (b.unparsed) {
            host.report(WindowsChecks.OPTION_NOT_PERMITTED, Tier.ASK, cmdlet + ": --% passes the rest of the line to it as one"
                    + " argument, unparsed", c.span());
        } else if (!b.problems.isEmpty()) {
            // PowerShell would refuse to bind these arguments, but only if the judge's reading of them is PowerShell's
            // (the version, the provider's dynamic parameters, a type that picks a parameter set): asking is safe
            host.report(WindowsChecks.OPTION_NOT_PERMITTED, Tier.ASK, cmdlet + ": " + String.join("; ", b.problems), c.span());
        }
        for (List<PsAst.Expr> exprs : b.values.values()) {
            for (PsAst.Expr e : exprs) {
                if (!PsValues.harmless(e, host)) {
                    host.report(WindowsChecks.DYNAMIC_ARGUMENT, Tier.ASK, cmdlet + " gets an argument whose value is"
                            + " computed at run time (" + e.span().of(ps.code) + ")", c.span());
                }
            }
        }
        reads.resolves(cmdlet, b, input, c);
        if (spec.readsFiles()) {
            reads.reads(cmdlet, b, input, c);
        }
        if (PRINTERS.contains(cmdlet)) {
            for (PsAst.Arg a : c.args()) {
                if (a instanceof PsAst.Value v && v.value() instanceof PsAst.Literal l && l.quoted()) {
                    host.data(v.span());
                }
            }
        }
        return new PsCommandJudge.Stage(downloads, output);
    }

    /**
     * The common parameters that name variables ({@code -OutVariable global:x},
     * {@code -ErrorVariable ErrorActionPreference}): naming one that outlives the line asks.
     */
    private void variables(PsBinding b, PsAst.CommandCall c) {
        for (String param : NAMING_PARAMS) {
            for (PsAst.Expr e : b.get(param)) {
                String name = PsValues.value(e, host);
                String why = name == null ? "-" + param + " names a variable chosen at run time" : PsState.variable(name);
                if (why != null) {
                    host.report(WindowsChecks.SHELL_STATE, Tier.ASK, "-" + param + " " + why, c.span());
                }
            }
        }
    }

    /** Runs only the policy's rules on the command read as {@code cmdlet} (what it would be in another shell). */
    void rulesOnly(String cmdlet, PsAst.CommandCall c, PsFlow input) {
        PsBinding b = PsBinding.bind(PsCmdlets.get(cmdlet), c, ps);
        List<String> operands = new ArrayList<>(b.operands);
        if (!b.hasPath()) {
            operands.addAll(PsFlow.listed(input, PsCmdlets.get(cmdlet)));
        }
        commands.rules(cmdlet, b.options, operands, c.span());
    }

    /** Cmdlets judged beyond their name; returns whether it already said why it asks. */
    private boolean special(String cmdlet, PsAst.CommandCall c, PsBinding b, PsFlow input, boolean upstream) {
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
                if (to.isEmpty() && !(input instanceof PsFlow.None)) {
                    // the location comes down the pipeline
                    to.add(null);
                }
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
            case "Get-Module", "Get-Help" -> {
                // a path names a module or script to load help or a manifest from: on a share that reaches another machine
                for (List<PsAst.Expr> exprs : b.values.values()) {
                    for (PsAst.Expr e : exprs) {
                        for (String v : PsValues.values(e, host)) {
                            WindowsPaths.Kind kind = v == null ? null : WindowsPaths.parse(v, true).kind();
                            if (kind == WindowsPaths.Kind.NETWORK || kind == WindowsPaths.Kind.DEVICE) {
                                host.report(WindowsChecks.NETWORK_PATH, Tier.ASK, cmdlet + " reads " + v + ", a share or device",
                                        c.span());
                            }
                        }
                    }
                }
                return false;
            }
            case "Get-CimInstance", "Get-WmiObject" -> {
                String why = PsCim.why(cmdlet, b, ps);
                if (why != null) {
                    host.report(WindowsChecks.PRINTS_ENVIRONMENT, Tier.ASK, why, c.span());
                }
                return false;
            }
            case "ForEach-Object" -> {
                boolean withArguments = !b.get("ArgumentList").isEmpty();
                for (String param : List.of("Process", "MemberName", "Begin", "End")) {
                    for (PsAst.Expr e : b.get(param)) {
                        if (!(e instanceof PsAst.ScriptBlock)
                                && !ps.typing.readsOnly(input.type(), PsValues.value(e, host), withArguments)) {
                            host.report(WindowsChecks.DOTNET_CALL, Tier.ASK, "ForEach-Object " + e.span().of(ps.code)
                                    + " calls a method, or reads a property, of every input object, and what it is cannot be told"
                                    + " here (" + (input.type() == null ? "the objects' type is not known" : input.type()) + ")",
                                    c.span());
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
