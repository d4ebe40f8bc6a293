package io.shellgate.judge.internal.powershell;

import io.shellgate.judge.CommandInfo;
import io.shellgate.judge.Dialect;
import io.shellgate.judge.Span;
import io.shellgate.judge.internal.windows.WindowsChecks;
import io.shellgate.judge.internal.windows.WindowsCommand;
import io.shellgate.judge.internal.windows.WindowsHost;
import io.shellgate.judge.internal.windows.WindowsReads;
import io.shellgate.judge.internal.windows.WindowsRules;
import io.shellgate.judge.internal.windows.WindowsShells;
import io.shellgate.rules.Tier;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** One PowerShell command: how its name resolves (function, alias, cmdlet, program, script) and what that does. */
final class PsCommandJudge {

    private final PowerShellJudge ps;
    private final WindowsHost host;
    private final PsCmdletJudge cmdlets;
    final PsNative natives;

    PsCommandJudge(PowerShellJudge ps) {
        this.ps = ps;
        this.host = ps.host;
        this.cmdlets = new PsCmdletJudge(ps, this);
        this.natives = new PsNative(ps);
    }

    /**
     * What a stage of a pipeline hands on.
     *
     * @param downloads whether it may be content from the network
     * @param output what a path parameter downstream may bind
     */
    record Stage(boolean downloads, PsFlow output) {}

    /**
     * Judges a command that reads {@code input}.
     *
     * @param upstream whether that input may come from the network
     */
    Stage command(PsAst.CommandCall c, PsFlow input, boolean upstream) {
        int mark = host.mark();
        ps.redirects(c.redirects());
        // $_ in the script blocks a command is given is each object of its input
        String item = ps.typing.item;
        ps.typing.item = input instanceof PsFlow.None ? item : input.type();
        for (PsAst.Arg a : c.args()) {
            if (a instanceof PsAst.Value v && ps.calls.early(v.value()) || a instanceof PsAst.Param p && ps.calls.early(p.value())) {
                continue;
            }
            if (a instanceof PsAst.Value v) {
                ps.expression(v.value());
            } else if (a instanceof PsAst.Param p && p.value() != null) {
                ps.expression(p.value());
            }
        }
        ps.typing.item = item;
        String name = name(c);
        List<String> argv = new ArrayList<>();
        argv.add(name == null ? "?" : name);
        c.args().forEach(a -> argv.add(display(a)));
        String resolved = CommandInfo.UNKNOWN;
        Stage stage = new Stage(false, new PsFlow.Unknown("the output of " + (name == null ? "a computed command" : name)));
        if (name == null) {
            ps.expression(c.name());
            if (c.name() instanceof PsAst.ScriptBlock) {
                resolved = "script block";
            } else {
                host.report(WindowsChecks.DYNAMIC_COMMAND, Tier.ASK, "the command to run is computed at run time"
                        + " (the call operator & with a computed target)", c.span());
                String known = PsValues.value(c.name(), host, ps.assigned);
                if (known != null && !known.isEmpty()) {
                    // $c = 'Remove-Item'; & $c ...: still asked about, and refused when what it names is refused
                    String cmdlet = PsNames.cmdlet(known, ps.platform);
                    if (cmdlet != null) {
                        cmdlets.judge(cmdlet, c, input, upstream);
                    } else {
                        natives.judge(known, c, upstream);
                        otherShells(known, c, input);
                    }
                }
                if (PsDownloads.in(c.name()) || upstream) {
                    WindowsShells.downloadToShell(host, c.span(), "runs code downloaded from the network");
                }
            }
        } else if (c.invocation().equals(".") && !(c.name() instanceof PsAst.ScriptBlock)) {
            host.report(WindowsChecks.SCRIPT_FILE, Tier.ASK, "dot-sources " + name + ", a script shellgate does not read",
                    c.span());
        } else if (ps.functions.contains(name.toLowerCase(Locale.ROOT)) && !PsNames.isAlias(name, ps.platform)) {
            resolved = CommandInfo.FUNCTION;
            ps.calls.call(name, c.span());
        } else if (PsNames.locationFunction(name) != null) {
            // cd.., cd\, cd~ and D: are functions that run Set-Location
            resolved = CommandInfo.FUNCTION;
            ps.cwd = ps.location(PsNames.locationFunction(name));
            stage = new Stage(false, new PsFlow.None());
        } else {
            String cmdlet = PsNames.cmdlet(name, ps.platform);
            if (cmdlet != null) {
                resolved = "cmdlet " + cmdlet;
                argv.set(0, cmdlet);
                stage = cmdlets.judge(cmdlet, c, input, upstream);
            } else if (PsNames.looksLikeCmdlet(name) && !name.contains(".")) {
                host.report(WindowsChecks.NOT_READ_ONLY, Tier.ASK, name + " is not a cmdlet shellgate knows", c.span());
            } else {
                resolved = "program";
                // a program writes lines of text
                stage = new Stage(natives.judge(name, c, upstream), PsFlow.Strings.unknown());
                otherShells(name, c, input);
            }
        }
        if (!resolved.equals("program")) {
            // a program's words are recorded by the judge that judges them
            host.command(argv, resolved, host.tierSince(mark), c.span());
        }
        return stage;
    }

    /**
     * A name that runs a program here but a cmdlet in another shell ({@code rm} on pwsh for Linux
     * is /bin/rm, on Windows Remove-Item): the policy's rules for the cmdlet run too, so that a
     * line refused on one system is refused on all.
     */
    private void otherShells(String name, PsAst.CommandCall c, PsFlow input) {
        if (PsNames.aliasElsewhere(name, ps.platform)) {
            String cmdlet = PsNames.cmdlet(name);
            if (cmdlet != null) {
                cmdlets.rulesOnly(cmdlet, c, input);
            }
        }
    }

    /** The command's name when it is fixed text; null for a script block or a computed name. */
    private String name(PsAst.CommandCall c) {
        if (!(c.name() instanceof PsAst.Literal l)) {
            return null;
        }
        String name = l.value();
        if (name.chars().anyMatch(ch -> ch < 0x20)) {
            // `e and `a are escapes in PowerShell 7; 5.1 drops the backtick (R`emove-Item is Remove-Item there)
            String source = ps.code.substring(l.span().start(), l.span().end());
            return source.indexOf('\'') < 0 && source.indexOf('"') < 0 ? source.replace("`", "") : null;
        }
        return name;
    }

    /** Judges a path a command reads: computed, a provider drive, or a secret asks. */
    void readsFile(PsAst.Expr path, Span span, String who) {
        for (String value : PsValues.values(path, host)) {
            readsFile(value, span, who, false);
        }
    }

    /** @param recursive whether everything under the path is read ({@code -Recurse}) */
    void readsFile(String value, Span span, String who, boolean recursive) {
        read(value, new WindowsReads.Read(who, recursive ? WindowsReads.Use.RECURSIVE : WindowsReads.Use.READ, true, false, span));
    }

    /** Checks a path a command uses, from the current location; returns whether it asked. */
    boolean read(String value, WindowsReads.Read read) {
        return WindowsReads.check(host, value, ps.cwd, read);
    }

    /** Runs the policy's PowerShell rules on a canonical command. */
    void rules(String name, List<String> options, List<String> operands, Span span) {
        WindowsRules.check(host, Dialect.POWERSHELL, new WindowsCommand(name, options, operands, span), ps.cwd);
    }

    private static String display(PsAst.Arg a) {
        return switch (a) {
            case PsAst.Param p -> "-" + p.name() + (p.value() == null ? "" : ":" + literal(p.value()));
            case PsAst.Value v -> literal(v.value());
            case PsAst.StopParsing s -> "--%" + s.text();
        };
    }

    private static String literal(PsAst.Expr e) {
        return e instanceof PsAst.Literal l ? l.value() : "?";
    }
}
