package io.shellgate.judge.internal.powershell;

import io.shellgate.judge.internal.windows.WindowsChecks;
import io.shellgate.judge.internal.windows.WindowsHost;
import io.shellgate.judge.internal.windows.WindowsReads;
import io.shellgate.rules.Tier;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * The paths a cmdlet looks up or reads: given by name or position, or bound from the pipeline by
 * value (a string) or by property name (as the cmdlet's metadata binds an object's properties; the
 * items Get-ChildItem lists). Each is checked by {@link WindowsReads}; input that may be a path but is
 * not known asks.
 */
final class PsReads {

    private static final Set<String> PATH_PARAMS = Set.of("Path", "LiteralPath", "FilePath");
    /** Parameters whose value a cmdlet looks up as a path (Get-Command's Name may be one). */
    private static final List<String> RESOLVED_PARAMS = List.of("Path", "LiteralPath", "FilePath", "RelativeBasePath", "Name");
    /** The parameters pipeline objects give a cmdlet that looks paths up: Get-Command's Name is not a path by property. */
    private static final Set<String> RESOLVED = Set.of("Path", "LiteralPath", "FilePath", "RelativeBasePath");

    private final PowerShellJudge ps;
    private final WindowsHost host;
    private final PsCommandJudge commands;

    PsReads(PowerShellJudge ps, PsCommandJudge commands) {
        this.ps = ps;
        this.host = ps.host;
        this.commands = commands;
    }

    /**
     * Paths a cmdlet looks up ({@code Test-Path}, {@code Resolve-Path}, {@code Set-Location}...),
     * given or piped: a network share or a device asks even where nothing is read. Split-Path and
     * Join-Path only work on the text unless they are told to -Resolve.
     */
    void resolves(String cmdlet, PsBinding b, PsFlow input, PsAst.CommandCall c) {
        if ((cmdlet.equals("Split-Path") || cmdlet.equals("Join-Path")) && !b.options.contains("-Resolve")) {
            return;
        }
        List<String> paths = new ArrayList<>();
        for (String param : RESOLVED_PARAMS) {
            if (param.equals("Name") && !cmdlet.equals("Get-Command")) {
                continue;
            }
            for (PsAst.Expr e : b.get(param)) {
                for (String v : PsValues.values(e, host)) {
                    if (v == null) {
                        // a path computed at run time may name a share: looking it up sends the user's credentials there
                        host.report(WindowsChecks.DYNAMIC_ARGUMENT, Tier.ASK, cmdlet + " looks up a path computed at run time,"
                                + " which could be a share on another machine", c.span());
                        return;
                    }
                    paths.add(v);
                }
            }
        }
        if (!b.hasPath()) {
            switch (input) {
                case PsFlow.Strings s -> paths.addAll(s.values());
                case PsFlow.Objects o -> paths.addAll(o.paths(PsCmdlets.get(cmdlet), RESOLVED));
                default -> {
                    // items and unknown objects: what a reader does with them is judged where it reads
                }
            }
        }
        for (String v : paths) {
            if (v != null) {
                commands.read(v, new WindowsReads.Read(cmdlet, WindowsReads.Use.RESOLVE, true, false, c.span()));
            }
        }
    }

    /** Checks the paths a file-reading cmdlet reads: its own, else those its pipeline input binds, else the current location. */
    void reads(String cmdlet, PsBinding b, PsFlow input, PsAst.CommandCall c) {
        boolean recursive = b.options.contains("-Recurse") || b.options.contains("-Depth");
        WindowsReads.Use use = recursive ? WindowsReads.Use.RECURSIVE : WindowsReads.Use.READ;
        boolean any = false;
        for (String param : PATH_PARAMS) {
            for (PsAst.Expr e : b.get(param)) {
                any = true;
                for (String v : PsValues.values(e, host)) {
                    // Get-ChildItem lists what a pattern matches (names); the others read each match
                    boolean wildcards = !cmdlet.equals("Get-ChildItem") && !param.equals("LiteralPath");
                    commands.read(v, new WindowsReads.Read(cmdlet, use, true, wildcards, c.span()));
                }
            }
        }
        // which parameters take pipeline input, by value or by property name, comes from PowerShell's metadata
        PsCmdlets.Cmdlet spec = PsCmdlets.get(cmdlet);
        if (any || spec != null && spec.noPathInput()) {
            return;
        }
        String who = cmdlet + " (given paths through the pipeline)";
        switch (input) {
            case PsFlow.None n ->
                // without a path it reads the current location, which a cd may have moved to Env: or HKCU:
                commands.read(".", new WindowsReads.Read(cmdlet, use, true, false, c.span()));
            case PsFlow.Strings s -> {
                if (spec == null || !spec.contentInput()) {
                    for (String v : s.values()) {
                        commands.read(v, new WindowsReads.Read(who, use, true, true, c.span()));
                    }
                }
            }
            case PsFlow.Objects o -> {
                for (String v : o.paths(spec, PsFlow.PATH_PARAMETERS)) {
                    commands.read(v, new WindowsReads.Read(who, use, true, true, c.span()));
                }
            }
            case PsFlow.Items i -> {
                for (PsFlow.Listing l : i.listings()) {
                    listing(who, l, cmdlet.equals("Get-ChildItem") || cmdlet.equals("Get-Item") || cmdlet.equals("Get-Acl"), c);
                }
            }
            case PsFlow.Unknown u -> host.report(WindowsChecks.DYNAMIC_ARGUMENT, Tier.ASK, cmdlet + " reads the files or paths"
                    + " its pipeline input names (" + u.what() + "), which shellgate does not know", c.span());
        }
    }

    /**
     * A reader given the items of a listing: it reads each one (their content, or for
     * Get-ChildItem and Get-Item their entries and properties).
     */
    private void listing(String who, PsFlow.Listing l, boolean namesOnly, PsAst.CommandCall c) {
        if (!l.children()) {
            commands.read(l.path(), new WindowsReads.Read(who, WindowsReads.Use.READ, true, false, c.span()));
            return;
        }
        if (namesOnly) {
            commands.read(l.path(), new WindowsReads.Read(who, l.recursive() ? WindowsReads.Use.RECURSIVE
                    : WindowsReads.Use.READ, true, false, c.span()));
            return;
        }
        List<String> include = l.include();
        commands.read(l.path(), new WindowsReads.Read(who, l.recursive() ? WindowsReads.Use.TREE : WindowsReads.Use.CHILDREN, true,
                false, name -> include == null || include.stream().anyMatch(p -> PsPipeline.matches(p, name)), c.span()));
    }
}
