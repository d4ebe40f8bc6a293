package io.shellgate.judge.internal.powershell;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * What each stage of a pipeline hands to the next ({@link PsFlow}): from expressions (strings,
 * {@code [pscustomobject]@{Path=...}}) and from the cmdlets whose output this judge follows
 * (Write-Output, Join-Path, ConvertFrom-Json, Get-ChildItem, Get-Content, the filters that pass
 * objects through). Everything else is {@link PsFlow.Unknown}.
 */
final class PsPipeline {

    private static final Set<String> PASS_THROUGH = Set.of("Where-Object", "Sort-Object", "Get-Unique", "Write-Output");
    private static final Set<String> HOST_ONLY = Set.of("Write-Host", "Out-Null", "Out-Host", "Write-Verbose", "Write-Warning",
            "Write-Debug", "Write-Information", "Set-Location", "Push-Location", "Pop-Location", "Start-Sleep", "Clear-Host");
    private static final Set<String> TEXT = Set.of("Out-String", "ConvertTo-Json", "ConvertTo-Csv", "Get-Content");
    /** The types of what cmdlets output, for the methods called on it ({@code (Get-Date).AddDays(1)}). */
    private static final Map<String, String> OUTPUT_TYPES = Map.of("Get-Date", PsTypes.DATETIME, "Get-Process",
            "system.diagnostics.process", "Measure-Object", "microsoft.powershell.commands.genericmeasureinfo", "Select-String",
            "microsoft.powershell.commands.matchinfo", "Get-FileHash", "microsoft.powershell.commands.filehashinfo",
            "Split-Path", PsTypes.STRING, "Resolve-Path", "system.management.automation.pathinfo");
    private static final Set<String> OBJECT_TYPES = Set.of("pscustomobject", "psobject", "ordered", "hashtable",
            "system.management.automation.pscustomobject", "system.collections.hashtable");

    private PsPipeline() {}

    /** What a cmdlet hands on, given its arguments and its input. */
    static PsFlow output(String cmdlet, PsBinding b, PsFlow input, PowerShellJudge ps) {
        if (HOST_ONLY.contains(cmdlet)) {
            return new PsFlow.None();
        }
        switch (cmdlet) {
            case "Write-Output" -> {
                List<PsAst.Expr> given = b.get("InputObject");
                return given.isEmpty() ? input : merge(given.stream().map(e -> of(e, ps)).toList());
            }
            case "Get-ChildItem", "Get-Item" -> {
                return items(cmdlet, b, input, ps);
            }
            case "Join-Path" -> {
                return joined(b, ps);
            }
            case "ConvertFrom-Json" -> {
                return json(b, input, ps);
            }
            case "Get-Location" -> {
                return objects("path", ps.cwd == null ? null : ps.cwd);
            }
            case "Resolve-Path", "Convert-Path" -> {
                List<String> paths = new ArrayList<>();
                for (PsAst.Expr e : b.get("Path")) {
                    paths.addAll(PsValues.values(e, ps.host));
                }
                b.get("LiteralPath").forEach(e -> paths.addAll(PsValues.values(e, ps.host)));
                return paths.isEmpty() ? new PsFlow.Unknown(cmdlet + " of its input", OUTPUT_TYPES.get(cmdlet))
                        : new PsFlow.Objects(Map.of("path", paths));
            }
            case "Select-Object", "ForEach-Object" -> {
                return selected(cmdlet, b, input, ps);
            }
            default -> {
                if (PASS_THROUGH.contains(cmdlet)) {
                    return input;
                }
                return TEXT.contains(cmdlet) ? PsFlow.Strings.unknown()
                        : new PsFlow.Unknown("the output of " + cmdlet, OUTPUT_TYPES.get(cmdlet));
            }
        }
    }

    /** What an expression at the head of a pipeline, or given to Write-Output, hands on. */
    static PsFlow of(PsAst.Expr e, PowerShellJudge ps) {
        return switch (e) {
            case PsAst.Literal l -> strings(l.value());
            case PsAst.Expandable x -> strings(PsValues.value(x, ps.host));
            case PsAst.Variable v -> v.name().equalsIgnoreCase("null") ? new PsFlow.None() : PsValues.value(v, ps.host) != null
                    ? strings(PsValues.value(v, ps.host)) : new PsFlow.Unknown("the variable $" + v.name());
            case PsAst.SubExpr s -> ps.flows.getOrDefault(s, new PsFlow.Unknown("a subexpression"));
            case PsAst.Compound c -> switch (c.kind()) {
                case ARRAY -> merge(c.parts().stream().map(p -> of(p, ps)).toList());
                case HASH -> hash(c, ps);
                case CAST -> c.parts().getFirst() instanceof PsAst.TypeName t && c.parts().size() == 2
                        && OBJECT_TYPES.contains(t.name().toLowerCase(Locale.ROOT)) ? of(c.parts().get(1), ps)
                        : new PsFlow.Unknown("a cast");
                default -> new PsFlow.Unknown("the value of " + e.span().of(ps.code));
            };
            default -> new PsFlow.Unknown("the value of " + e.span().of(ps.code));
        };
    }

    private static PsFlow strings(String value) {
        List<String> one = new ArrayList<>();
        one.add(value);
        return new PsFlow.Strings(one);
    }

    private static PsFlow objects(String property, String value) {
        List<String> one = new ArrayList<>();
        one.add(value);
        return new PsFlow.Objects(Map.of(property, one));
    }

    /** A hash table (or [pscustomobject] of one): its keys are the properties. */
    private static PsFlow hash(PsAst.Compound c, PowerShellJudge ps) {
        Map<String, List<String>> props = new LinkedHashMap<>();
        for (int i = 0; i + 1 < c.parts().size(); i += 2) {
            String key = PsValues.value(c.parts().get(i), ps.host);
            if (key == null) {
                return new PsFlow.Unknown("a hash table with a computed key");
            }
            props.computeIfAbsent(key.toLowerCase(Locale.ROOT), k -> new ArrayList<>()).add(PsValues.value(c.parts().get(i + 1), ps.host));
        }
        return new PsFlow.Objects(props);
    }

    /** Flows of one pipeline's parts together: strings with strings, objects with objects. */
    static PsFlow merge(List<PsFlow> flows) {
        List<String> strings = new ArrayList<>();
        Map<String, List<String>> props = new LinkedHashMap<>();
        List<PsFlow.Listing> listings = new ArrayList<>();
        for (PsFlow f : flows) {
            switch (f) {
                case PsFlow.None n -> {
                    // adds nothing
                }
                case PsFlow.Strings s -> strings.addAll(s.values());
                case PsFlow.Objects o -> o.properties().forEach((k, v) -> props.computeIfAbsent(k, x -> new ArrayList<>()).addAll(v));
                case PsFlow.Items i -> listings.addAll(i.listings());
                case PsFlow.Unknown u -> {
                    return u;
                }
            }
        }
        int kinds = (strings.isEmpty() ? 0 : 1) + (props.isEmpty() ? 0 : 1) + (listings.isEmpty() ? 0 : 1);
        if (kinds > 1) {
            return new PsFlow.Unknown("values of several kinds");
        }
        return !strings.isEmpty() ? new PsFlow.Strings(strings) : !props.isEmpty() ? new PsFlow.Objects(props)
                : !listings.isEmpty() ? new PsFlow.Items(listings) : new PsFlow.None();
    }

    private static PsFlow items(String cmdlet, PsBinding b, PsFlow input, PowerShellJudge ps) {
        boolean children = cmdlet.equals("Get-ChildItem");
        boolean recursive = children && (b.options.contains("-Recurse") || b.options.contains("-Depth"));
        if (b.options.contains("-Name")) {
            return PsFlow.Strings.unknown();
        }
        // -Filter narrows any listing; -Include only a recursive one (Windows PowerShell ignores it otherwise)
        List<String> include = null;
        for (String param : recursive ? List.of("Include", "Filter") : List.of("Filter")) {
            for (PsAst.Expr e : b.get(param)) {
                include = include == null ? new ArrayList<>() : include;
                include.addAll(PsValues.values(e, ps.host));
            }
        }
        if (include != null && include.contains(null)) {
            include = null;
        }
        List<String> paths = new ArrayList<>();
        b.get("Path").forEach(e -> paths.addAll(PsValues.values(e, ps.host)));
        b.get("LiteralPath").forEach(e -> paths.addAll(PsValues.values(e, ps.host)));
        if (paths.isEmpty() && !(input instanceof PsFlow.None)) {
            return new PsFlow.Unknown("the items of " + cmdlet + "'s input");
        }
        if (paths.isEmpty()) {
            paths.add(".");
        }
        List<PsFlow.Listing> listings = new ArrayList<>();
        for (String p : paths) {
            if (p == null) {
                return new PsFlow.Unknown("the items of a path computed at run time");
            }
            listings.add(new PsFlow.Listing(p, children, recursive, include));
        }
        return new PsFlow.Items(listings);
    }

    private static PsFlow joined(PsBinding b, PowerShellJudge ps) {
        List<String> parts = new ArrayList<>();
        for (String param : List.of("Path", "ChildPath", "AdditionalChildPath")) {
            for (PsAst.Expr e : b.get(param)) {
                parts.addAll(PsValues.values(e, ps.host));
            }
        }
        if (parts.isEmpty() || parts.contains(null) || b.get("Path").size() != 1) {
            return PsFlow.Strings.unknown();
        }
        return strings(String.join("\\", parts));
    }

    private static PsFlow json(PsBinding b, PsFlow input, PowerShellJudge ps) {
        List<String> texts = new ArrayList<>();
        for (PsAst.Expr e : b.get("InputObject")) {
            texts.addAll(PsValues.values(e, ps.host));
        }
        if (texts.isEmpty() && input instanceof PsFlow.Strings s) {
            texts.addAll(s.values());
        }
        if (texts.isEmpty() || texts.contains(null)) {
            return new PsFlow.Unknown("objects made from JSON that is not known here");
        }
        PsFlow.Objects parsed = PsFlow.json(String.join("\n", texts));
        return parsed == null ? new PsFlow.Unknown("objects made from text that is not plain JSON") : parsed;
    }

    /** Select-Object and ForEach-Object with a property name: what they pick from their input. */
    private static PsFlow selected(String cmdlet, PsBinding b, PsFlow input, PowerShellJudge ps) {
        List<PsAst.Expr> expand = cmdlet.equals("Select-Object") ? b.get("ExpandProperty") : b.get("MemberName");
        if (cmdlet.equals("ForEach-Object") && expand.isEmpty() && b.get("Process").size() == 1
                && !(b.get("Process").getFirst() instanceof PsAst.ScriptBlock)) {
            expand = b.get("Process");
        }
        List<PsAst.Expr> property = cmdlet.equals("Select-Object") ? b.get("Property") : List.of();
        if (expand.isEmpty() && property.isEmpty()) {
            return cmdlet.equals("Select-Object") ? input : new PsFlow.Unknown("what a script block outputs");
        }
        List<String> names = new ArrayList<>();
        for (PsAst.Expr e : expand.isEmpty() ? property : expand) {
            names.addAll(PsValues.values(e, ps.host));
        }
        if (names.contains(null)) {
            return new PsFlow.Unknown("properties chosen at run time");
        }
        boolean pathLike = names.stream().anyMatch(n -> PsFlow.PATH_PROPERTIES.contains(n.toLowerCase(Locale.ROOT)));
        return switch (input) {
            case PsFlow.Items i -> pathLike ? i : expand.isEmpty() ? new PsFlow.Objects(Map.of()) : PsFlow.Strings.unknown();
            case PsFlow.Objects o -> {
                Map<String, List<String>> props = new LinkedHashMap<>();
                List<String> values = new ArrayList<>();
                for (String n : names) {
                    List<String> v = o.properties().getOrDefault(n.toLowerCase(Locale.ROOT), List.of());
                    props.put(n.toLowerCase(Locale.ROOT), v);
                    values.addAll(v);
                }
                yield expand.isEmpty() ? new PsFlow.Objects(props) : new PsFlow.Strings(values);
            }
            default -> new PsFlow.Unknown("properties of objects this judge does not follow");
        };
    }

    /** Whether a file name matches an -Include or -Filter pattern (the file system's quirks included). */
    static boolean matches(String pattern, String name) {
        return io.shellgate.judge.internal.windows.Wildcards.matchesName(pattern, name);
    }
}
