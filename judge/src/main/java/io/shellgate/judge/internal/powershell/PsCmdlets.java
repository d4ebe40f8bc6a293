package io.shellgate.judge.internal.powershell;

import java.util.ArrayList;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The cmdlets shellgate knows. Their parameters (names, aliases, positions, parameter sets,
 * pipeline binding, remaining arguments) come from {@code cmdlet-parameters.tsv}, generated from
 * PowerShell's own sources by {@code judge/tools/ps-cmdlet-metadata.py}; the table below is the policy:
 * which cmdlets are read-only and which of their parameters a read-only use may have. A table line
 * is {@code Name FLAGS: Param[?][!][@position]/alias ...}; {@code !} marks a parameter that is not
 * read-only (a parameter the generated data has and the line lacks is not read-only either); the
 * flag {@code R} makes the cmdlet read-only, {@code F} says its path values are read. Names,
 * switches, positions and aliases of the line are used only for cmdlets PowerShell's sources lack
 * (the Storage module's, Clear-Host).
 */
final class PsCmdlets {

    /** Where a parameter stands in one parameter set ({@code *}: all sets; position -1: named only). */
    record Slot(String set, int position, boolean mandatory, boolean byValue, boolean byProperty, boolean remaining) {}

    /** One parameter of a cmdlet. */
    record Param(String name, List<String> aliases, boolean isSwitch, boolean readOnly, List<Slot> slots, String type) {

        /**
         * Whether PowerShell could convert the argument to the parameter's type, as far as its form
         * tells: a script block binds only where a script block or any object goes, and nothing
         * else converts to a script block.
         */
        boolean accepts(PsAst.Expr argument) {
            boolean blockType = type.toLowerCase(Locale.ROOT).startsWith("scriptblock");
            boolean anyType = switch (type.toLowerCase(Locale.ROOT).replace("[]", "")) {
                case "object", "psobject" -> true;
                default -> false;
            };
            return argument instanceof PsAst.ScriptBlock ? blockType || anyType : !blockType;
        }

        /** Whether the argument binds without a conversion: a string to a string parameter, a script block to a script block one. */
        boolean exact(PsAst.Expr argument) {
            String t = type.toLowerCase(Locale.ROOT).replace("[]", "").replace("system.", "");
            return switch (argument) {
                case PsAst.Literal l -> t.equals("string") || t.equals("object") || t.equals("psobject");
                case PsAst.Expandable x -> t.equals("string") || t.equals("object") || t.equals("psobject");
                case PsAst.ScriptBlock b -> t.equals("scriptblock");
                default -> false;
            };
        }


        /** Whether the parameter is in one of {@code sets} (null: any). */
        boolean inAny(Set<String> sets) {
            return sets == null || slots.stream().anyMatch(s -> s.set().equals("*") || sets.contains(s.set()));
        }

        /** Its position among {@code sets}, or -1. */
        int position(Set<String> sets) {
            int best = -1;
            for (Slot s : slots) {
                if (s.position() >= 0 && (sets == null || s.set().equals("*") || sets.contains(s.set()))
                        && (best < 0 || s.position() < best)) {
                    best = s.position();
                }
            }
            return best;
        }

        boolean remaining(Set<String> sets) {
            return slots.stream().anyMatch(s -> s.remaining() && (sets == null || s.set().equals("*") || sets.contains(s.set())));
        }
    }

    /** What a name written after a dash resolves to: the parameter, or why none. */
    record Resolved(Param param, List<String> ambiguous) {}

    record Cmdlet(String name, boolean readOnly, boolean readsFiles, String defaultSet, List<Param> params) {

        /**
         * The parameter {@code written} (without its dash) names as PowerShell resolves it: an exact
         * name or alias, else the one parameter of which it is a prefix of the name or of an alias;
         * null with the candidates when several match (PowerShell's "parameter cannot be processed
         * because the parameter name is ambiguous").
         */
        Resolved resolve(String written) {
            String w = written.toLowerCase(Locale.ROOT);
            List<Param> prefixed = new ArrayList<>();
            for (Param p : params) {
                if (p.name.equalsIgnoreCase(w) || p.aliases.contains(w)) {
                    return new Resolved(p, List.of());
                }
                boolean prefix = p.name.toLowerCase(Locale.ROOT).startsWith(w) || p.aliases.stream().anyMatch(a -> a.startsWith(w));
                if (prefix) {
                    prefixed.add(p);
                }
            }
            return prefixed.size() == 1 ? new Resolved(prefixed.getFirst(), List.of())
                    : new Resolved(null, prefixed.stream().map(Param::name).toList());
        }

        /**
         * Whether strings from the pipeline are content, not paths: a parameter other than a path
         * takes input by value ({@code Select-String}'s {@code InputObject}) and no path does.
         */
        boolean contentInput() {
            return params.stream().anyMatch(p -> !PATH_NAMES.contains(p.name) && p.slots.stream().anyMatch(Slot::byValue))
                    && params.stream().noneMatch(p -> PATH_NAMES.contains(p.name) && p.slots.stream().anyMatch(Slot::byValue));
        }

        /** Whether no path parameter takes pipeline input, by value or by property name ({@code Format-Hex}). */
        boolean noPathInput() {
            return params.stream().noneMatch(p -> PATH_NAMES.contains(p.name)
                    && p.slots.stream().anyMatch(s -> s.byValue() || s.byProperty()));
        }

        /** The parameter sets the cmdlet has (not counting {@code *}). */
        Set<String> sets() {
            Set<String> sets = new LinkedHashSet<>();
            for (Param p : params) {
                p.slots.forEach(s -> {
                    if (!s.set().equals("*")) {
                        sets.add(s.set());
                    }
                });
            }
            return sets;
        }
    }

    private static final Set<String> PATH_NAMES = Set.of("Path", "LiteralPath", "FilePath");
    private static final String COMMON = "Verbose?/vb Debug?/db ErrorAction/ea WarningAction/wa InformationAction/infa"
            + " ErrorVariable/ev WarningVariable/wv InformationVariable/iv OutVariable/ov OutBuffer/ob PipelineVariable/pv"
            + " ProgressAction/proga WhatIf?/wi Confirm?/cf";
    private static final String PATHS = "Path@0 LiteralPath/pspath/lp";
    private static final String FORMAT = "Property@0 InputObject GroupBy View ShowError? DisplayError? Force? Expand AutoSize? ExcludeProperty"
            + " HideTableHeaders? Wrap? RepeatHeader? Column";
    private static final Map<String, Cmdlet> BY_NAME = new HashMap<>();

    static {
        String table = """
                Get-ChildItem RF: PATHS Filter@1 Include Exclude Recurse?/s/r Depth Force? Name? Attributes Directory?/ad/d File?/af Hidden?/ah/h ReadOnly?/ar System?/as FollowSymlink?
                Get-Content RF: PATHS ReadCount TotalCount/first/head Tail/last Filter Include Exclude Force? Delimiter Raw? Encoding AsByteStream? Stream Wait? Credential!
                Select-String RF: Pattern@0 Path@1 LiteralPath/pspath/lp InputObject SimpleMatch? CaseSensitive? Quiet? List? NoEmphasis? Include Exclude NotMatch? AllMatches? Encoding Context Raw? Culture
                Get-Item RF: PATHS Filter Include Exclude Force? Stream Credential!
                Format-Hex RF: PATHS InputObject Encoding Count Offset Raw?
                Get-FileHash RF: PATHS InputStream Algorithm
                Get-Acl RF: PATHS InputObject Audit? Filter Include Exclude AllCentralAccessPolicies?
                Test-Path R: PATHS Filter Include Exclude PathType/type IsValid? OlderThan NewerThan Credential!
                Resolve-Path R: PATHS Relative? RelativeBasePath Force? Credential!
                Split-Path R: PATHS ChildPath@1 Parent? Leaf? LeafBase? Extension? Qualifier? NoQualifier? IsAbsolute? Resolve? Credential!
                Join-Path R: Path@0/pspath ChildPath@1 AdditionalChildPath@2 Resolve? Extension Credential!
                Get-Location R: PSProvider PSDrive Stack? StackName
                Set-Location R: PATHS PassThru? StackName
                Push-Location R: PATHS PassThru? StackName
                Pop-Location R: PassThru? StackName
                Measure-Object R: Property@0 InputObject Sum? Average? Maximum? Minimum? Line? Word? Character? IgnoreWhiteSpace? StandardDeviation? AllStats?
                Select-Object R: Property@0 InputObject ExcludeProperty ExpandProperty Unique? Last First Skip SkipLast Wait? Index SkipIndex CaseInsensitive?
                Sort-Object R: Property@0 InputObject Descending? Unique? CaseSensitive? Culture Stable? Top Bottom
                Group-Object R: Property@0 InputObject NoElement? AsHashTable?/aht AsString? CaseSensitive? Culture
                Compare-Object R: ReferenceObject@0 DifferenceObject@1 SyncWindow Property ExcludeDifferent? IncludeEqual? PassThru? Culture CaseSensitive? IgnoreWhiteSpace?
                Where-Object R: FilterScript@0 Property Value@1 InputObject EQ?/ieq CEQ? NE?/ine CNE? GT?/igt CGT? LT?/ilt CLT? GE?/ige CGE? LE?/ile CLE? Like?/ilike CLike? NotLike?/inotlike CNotLike? Match?/imatch CMatch? NotMatch?/inotmatch CNotMatch? Contains?/icontains CContains? NotContains?/inotcontains CNotContains? In?/iin CIn? NotIn?/inotin CNotIn? Is? IsNot? Not? And? Or?
                ForEach-Object R: Process@0 Begin End RemainingScripts InputObject MemberName ArgumentList/args Parallel! ThrottleLimit TimeoutSeconds AsJob?! UseNewRunspace?!
                Format-Table R: FORMAT
                Format-List R: FORMAT
                Format-Wide R: FORMAT
                Format-Custom R: FORMAT Depth
                Out-String R: InputObject Width Stream? NoNewline?
                Out-Host R: InputObject Paging?
                Out-Null R: InputObject
                Write-Output R: InputObject@0 NoEnumerate?
                Write-Host R: Object@0/msg/message NoNewline? Separator ForegroundColor BackgroundColor
                Write-Verbose R: Message@0/msg
                Write-Warning R: Message@0/msg
                Write-Debug R: Message@0/msg
                Write-Information R: MessageData@0/msg/message Tags
                Get-Date R: Date@0 Year Month Day Hour Minute Second Millisecond DisplayHint Format UFormat AsUTC? UnixTimeSeconds
                ConvertTo-Json R: InputObject@0 Depth Compress? EnumsAsStrings? AsArray? EscapeHandling
                ConvertFrom-Json R: InputObject@0 AsHashtable? Depth NoEnumerate? DateKind
                ConvertTo-Csv R: InputObject@0 Delimiter UseCulture? NoTypeInformation?/nti IncludeTypeInformation?/iti QuoteFields/qf UseQuotes/uq NoHeader?
                ConvertFrom-Csv R: InputObject@0 Delimiter UseCulture? Header
                Get-Member R: Name@0 InputObject Force? View MemberType/type Static?
                Get-Unique R: InputObject AsString? OnType? CaseInsensitive?
                Get-Process R: Name@0/processname Id/pid InputObject Module? FileVersionInfo?/fv/fvi IncludeUserName? ComputerName!/cn
                Get-Service R: Name@0/servicename DisplayName Include Exclude DependentServices?/ds RequiredServices?/sdo/servicesdependedon InputObject ComputerName!/cn
                Get-Host R:
                Get-Culture R: Name ListAvailable? NoUserOverrides?
                Get-History R: Id@0 Count@1
                Get-Alias R: Name@0 Definition Scope Exclude
                Get-Command R: Name@0 Noun Verb CommandType/type TotalCount Syntax? All? ListImported? ParameterName ParameterType ExcludeModule FuzzyMinimumDistance UseFuzzyMatching? UseAbbreviationExpansion? ShowCommandInfo? Module!/pssnapin FullyQualifiedModule! ArgumentList!/args
                Get-Help R: Name@0 Path Category Component Functionality Role Full? Detailed? Examples? Parameter Online?! ShowWindow?!
                Get-TimeZone R: Name@0 Id ListAvailable?
                Get-Random R: Maximum@0 Minimum InputObject Count SetSeed Shuffle?
                Start-Sleep R: Seconds@0 Milliseconds/ms Duration/ts
                Clear-Host R:
                Get-PSDrive R: Name@0 PSProvider Scope LiteralName
                Get-ItemProperty RF: PATHS Name@1/psproperty Filter Include Exclude Credential!
                Get-ItemPropertyValue RF: PATHS Name@1/psproperty Filter Include Exclude Credential!
                Test-Json RF: Json@0 Schema Path LiteralPath/pspath/lp Options SchemaFile!
                Select-Xml RF: XPath@0 Path@1 LiteralPath/pspath/lp Xml/node Content Namespace
                Get-ExecutionPolicy R: Scope@0 List?
                New-Guid R: Empty? InputObject
                New-TimeSpan R: Start@0/lastwritetime End@1 Days Hours Minutes Seconds Milliseconds
                Join-String R: Property@0 Separator@1 OutputPrefix/op OutputSuffix/os SingleQuote? DoubleQuote? FormatString UseCulture? InputObject
                Get-Verb R: Verb@0 Group@1
                Measure-Command R: Expression@0 InputObject
                ConvertTo-Html R: Property@0 Head Title Body CssUri/cu/uri As Fragment? PreContent PostContent Charset Meta Transitional? InputObject
                ConvertFrom-StringData R: StringData@0 Delimiter
                Get-PSProvider R: PSProvider@0
                Get-Error R: Newest@0 InputObject
                Get-ComputerInfo R: Property@0
                Get-CimInstance R: ClassName@0 Filter Property/selectproperties Namespace Query QueryDialect KeyOnly? Shallow? OperationTimeoutSec/ot ResourceUri InputObject ComputerName!/cn/servername CimSession!
                Get-WmiObject R: Class@0 Property@1 Filter Namespace/ns Query List? Recurse? Amended? DirectRead? Locale Impersonation Authentication ThrottleLimit ComputerName!/cn Credential! Authority! AsJob?! EnableAllPrivileges?!
                Get-Module R: Name@0 ListAvailable? All? Refresh? FullyQualifiedName PSEdition SkipEditionCheck? PSSession! CimSession! CimResourceUri! CimNamespace!
                Remove-Item F: PATHS Filter Include Exclude Recurse? Force? Credential Stream
                Format-Volume: DriveLetter@0 Path ObjectId Partition FileSystemLabel FileSystem AllocationUnitSize Full? Force? Compress? CimSession ThrottleLimit AsJob?
                Clear-Disk: Number@0 UniqueId FriendlyName Path InputObject RemoveData? RemoveOEM? ZeroOutEntireDisk? CimSession ThrottleLimit AsJob? PassThru?
                Initialize-Disk: Number@0 UniqueId FriendlyName Path InputObject PartitionStyle CimSession ThrottleLimit AsJob? PassThru?
                Stop-Computer: ComputerName@0/cn Force? Credential WsmanAuthentication AsJob? DcomAuthentication Impersonation Protocol ThrottleLimit
                Restart-Computer: ComputerName@0/cn Force? Wait? Timeout For Delay Credential WsmanAuthentication Protocol
                Invoke-Expression: Command@0
                Invoke-WebRequest: Uri@0 Method Body OutFile Headers UseBasicParsing? UserAgent Proxy WebSession SessionVariable Credential
                Invoke-RestMethod: Uri@0 Method Body OutFile Headers UseBasicParsing? UserAgent Proxy WebSession SessionVariable Credential
                Start-Process: FilePath@0/pspath/path ArgumentList@1/args Credential WorkingDirectory LoadUserProfile?/lup NoNewWindow?/nnw PassThru? RedirectStandardError/rse RedirectStandardInput/rsi RedirectStandardOutput/rso Verb WindowStyle Wait? UseNewEnvironment?
                Invoke-Command: ScriptBlock@0/command ComputerName/cn Session FilePath ArgumentList/args InputObject AsJob? NoNewScope? Credential
                Set-Content: PATHS Value@1 Force? Encoding NoNewline? PassThru? Stream
                Add-Content: PATHS Value@1 Force? Encoding NoNewline? PassThru? Stream
                Out-File: FilePath@0/path LiteralPath Encoding Append? Force? NoClobber? Width NoNewline? InputObject
                New-Item: PATHS ItemType/type Name Value Force?
                Set-ExecutionPolicy: ExecutionPolicy@0 Scope Force?
                Set-Alias: Name@0 Value@1 Description Option PassThru? Scope Force?
                New-Alias: Name@0 Value@1 Description Option PassThru? Scope Force?
                New-Object: TypeName@0 ArgumentList@1/args ComObject Property Strict?
                Start-BitsTransfer: Source@0 Destination@1
                Set-ItemProperty: PATHS Name@1 Value@2 Type Force? PassThru?
                """;
        Map<String, Map<String, List<String>>> generated = generated();
        for (String line : table.strip().split("\n")) {
            int colon = line.indexOf(':');
            String[] head = line.substring(0, colon).strip().split(" ");
            String flags = head.length > 1 ? head[1] : "";
            String body = line.substring(colon + 1).replace("PATHS", PATHS).replace("FORMAT", FORMAT) + " " + COMMON;
            Map<String, Param> listed = new LinkedHashMap<>();
            for (String spec : body.strip().split(" +")) {
                String[] names = spec.split("/");
                String n = names[0];
                int position = -1;
                int at = n.indexOf('@');
                if (at > 0) {
                    position = Integer.parseInt(n.substring(at + 1));
                    n = n.substring(0, at);
                }
                boolean readOnly = !n.endsWith("!");
                n = n.replace("!", "");
                boolean isSwitch = n.endsWith("?");
                n = n.replace("?", "");
                List<String> aliases = new ArrayList<>();
                for (int i = 1; i < names.length; i++) {
                    aliases.add(names[i].replace("!", "").replace("?", "").toLowerCase(Locale.ROOT));
                }
                listed.put(n.toLowerCase(Locale.ROOT), new Param(n, List.copyOf(aliases), isSwitch, readOnly,
                        List.of(new Slot("*", position, false, false, false, false)), isSwitch ? "SwitchParameter" : "object"));
            }
            Map<String, List<String>> fromSource = generated.get(head[0].toLowerCase(Locale.ROOT));
            String defaultSet = "*";
            List<Param> params = new ArrayList<>(listed.values());
            if (fromSource != null) {
                defaultSet = fromSource.get("").getFirst();
                params.clear();
                for (Map.Entry<String, List<String>> e : fromSource.entrySet()) {
                    if (!e.getKey().isEmpty()) {
                        Param policy = listed.get(e.getKey());
                        params.add(param(e.getValue(), policy != null && policy.readOnly()));
                    }
                }
            }
            BY_NAME.put(head[0].toLowerCase(Locale.ROOT), new Cmdlet(head[0], flags.contains("R"), flags.contains("F"), defaultSet,
                    List.copyOf(params)));
        }
    }

    /** A parameter from a generated line {@code P cmdlet name S|- aliases sets origin type}. */
    private static Param param(List<String> f, boolean readOnly) {
        List<String> aliases = f.get(4).equals("-") ? List.of()
                : List.of(f.get(4).toLowerCase(Locale.ROOT).split(","));
        List<Slot> slots = new ArrayList<>();
        for (String entry : f.get(5).split(";")) {
            String[] parts = entry.split("\\|");
            String flags = parts[2];
            slots.add(new Slot(parts[0], parts[1].equals("-") ? -1 : Integer.parseInt(parts[1]), flags.contains("M"),
                    flags.contains("V"), flags.contains("N"), flags.contains("R")));
        }
        return new Param(f.get(2), aliases, f.get(3).equals("S"), readOnly, List.copyOf(slots), f.get(7));
    }

    /** cmdlet (lower case) to parameter (lower case) to its fields; the key "" holds the default set. */
    private static Map<String, Map<String, List<String>>> generated() {
        Map<String, Map<String, List<String>>> out = new HashMap<>();
        try (InputStream in = PsCmdlets.class.getResourceAsStream("cmdlet-parameters.tsv")) {
            if (in == null) {
                throw new IllegalStateException("cmdlet-parameters.tsv is missing from the judge's resources");
            }
            BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
            for (String line = r.readLine(); line != null; line = r.readLine()) {
                if (line.startsWith("#") || line.isBlank()) {
                    continue;
                }
                List<String> f = List.of(line.split("\t"));
                String cmdlet = f.get(1).toLowerCase(Locale.ROOT);
                Map<String, List<String>> params = out.computeIfAbsent(cmdlet, k -> new LinkedHashMap<>());
                if (f.getFirst().equals("C")) {
                    params.put("", List.of(f.get(2)));
                } else {
                    params.put(f.get(2).toLowerCase(Locale.ROOT), f);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("reading cmdlet-parameters.tsv", e);
        }
        return out;
    }

    private PsCmdlets() {}

    static Cmdlet get(String name) {
        return BY_NAME.get(name.toLowerCase(Locale.ROOT));
    }
}
