package io.shellgate.judge.internal.powershell;

import java.util.HashMap;
import java.util.Locale;
import java.util.Map;

/**
 * Command names as PowerShell reads them: any case, the built-in aliases, module-qualified cmdlet
 * names and the built-in functions that stand for a cmdlet ({@code help}, {@code oss}). The
 * aliases depend on the shell: Windows PowerShell 5.1 has them all; PowerShell 7 drops
 * {@code curl}, {@code wget}, {@code sc} and the WMI ones; on Linux and macOS it also leaves
 * {@code ls}, {@code cat}, {@code sort}, {@code diff}, {@code rm}, {@code write}... to the system's
 * programs.
 */
final class PsNames {

    /** The shells whose aliases differ. */
    enum Platform {
        /** PowerShell on Windows, 5.1 or 7: the aliases of either. */
        WINDOWS,
        /** pwsh on Linux and macOS. */
        UNIX
    }

    private static final Map<String, String> ALIASES = new HashMap<>();
    /** Aliases that pwsh on Linux and macOS does not define (the system's program of that name runs). */
    private static final java.util.Set<String> WINDOWS_ONLY = java.util.Set.of("ac", "clear", "compare", "cpp", "diff", "gsv",
            "sleep", "sort", "start", "sasv", "spsv", "tee", "write", "cat", "cp", "ls", "man", "mount", "mv", "ps", "rm",
            "rmdir", "cnsn", "dnsn", "ogv", "shcm", "kill", "gwmi", "iwmi", "rwmi", "swmi", "sc", "trcm", "sujb", "rujb",
            "ipsn", "epsn", "curl", "wget", "lp", "gin", "gcb", "scb", "stz");
    /** Functions that only call a cmdlet. */
    private static final Map<String, String> FUNCTIONS = Map.of("help", "Get-Help", "oss", "Out-String");

    static {
        String table = """
                ac Add-Content; cat Get-Content; cd Set-Location; chdir Set-Location; clc Clear-Content; clear Clear-Host;
                clhy Clear-History; cli Clear-Item; clp Clear-ItemProperty; cls Clear-Host; clv Clear-Variable;
                cnsn Connect-PSSession; compare Compare-Object; copy Copy-Item; cp Copy-Item; cpi Copy-Item;
                cpp Copy-ItemProperty; curl Invoke-WebRequest; cvpa Convert-Path; dbp Disable-PSBreakpoint; del Remove-Item;
                diff Compare-Object; dir Get-ChildItem; dnsn Disconnect-PSSession; ebp Enable-PSBreakpoint; echo Write-Output;
                epal Export-Alias; epcsv Export-Csv; epsn Export-PSSession; erase Remove-Item; etsn Enter-PSSession;
                exsn Exit-PSSession; fc Format-Custom; fhx Format-Hex; fl Format-List; foreach ForEach-Object; ft Format-Table;
                fw Format-Wide; gal Get-Alias; gbp Get-PSBreakpoint; gc Get-Content; gcb Get-Clipboard; gci Get-ChildItem;
                gcim Get-CimInstance; gcm Get-Command; gcs Get-PSCallStack; gdr Get-PSDrive; ghy Get-History; gi Get-Item; gin Get-ComputerInfo;
                gjb Get-Job; gl Get-Location; gm Get-Member; gmo Get-Module; gp Get-ItemProperty; gps Get-Process;
                gpv Get-ItemPropertyValue; group Group-Object; gsn Get-PSSession; gsv Get-Service; gtz Get-TimeZone;
                gu Get-Unique; gv Get-Variable; gwmi Get-WmiObject; h Get-History; history Get-History; icm Invoke-Command;
                iex Invoke-Expression; ihy Invoke-History; ii Invoke-Item; ipal Import-Alias; ipcsv Import-Csv;
                ipmo Import-Module; ipsn Import-PSSession; irm Invoke-RestMethod; iwmi Invoke-WmiMethod; iwr Invoke-WebRequest;
                kill Stop-Process; lp Out-Printer; gcb Get-Clipboard; scb Set-Clipboard; stz Set-TimeZone; gerr Get-Error;
                ls Get-ChildItem; man help; md mkdir; measure Measure-Object; mi Move-Item;
                mount New-PSDrive; move Move-Item; mp Move-ItemProperty; mv Move-Item; nal New-Alias; ndr New-PSDrive;
                ni New-Item; nmo New-Module; nsn New-PSSession; nv New-Variable; ogv Out-GridView; oh Out-Host;
                popd Pop-Location; ps Get-Process; pushd Push-Location; pwd Get-Location; r Invoke-History;
                rbp Remove-PSBreakpoint; rcjb Receive-Job; rcsn Receive-PSSession; rd Remove-Item; rdr Remove-PSDrive;
                ren Rename-Item; ri Remove-Item; rjb Remove-Job; rm Remove-Item; rmdir Remove-Item; rmo Remove-Module;
                rni Rename-Item; rnp Rename-ItemProperty; rp Remove-ItemProperty; rsn Remove-PSSession; rujb Resume-Job;
                rv Remove-Variable; rvpa Resolve-Path; rwmi Remove-WmiObject; sajb Start-Job; sal Set-Alias;
                saps Start-Process; sasv Start-Service; sbp Set-PSBreakpoint; sc Set-Content; scb Set-Clipboard;
                select Select-Object; set Set-Variable; shcm Show-Command; si Set-Item; sl Set-Location; sleep Start-Sleep;
                sls Select-String; sort Sort-Object; sp Set-ItemProperty; spjb Stop-Job; spps Stop-Process;
                spsv Stop-Service; start Start-Process; stz Set-TimeZone; sujb Suspend-Job; sv Set-Variable;
                swmi Set-WmiInstance; tee Tee-Object; trcm Trace-Command; type Get-Content; wget Invoke-WebRequest;
                where Where-Object; wjb Wait-Job; write Write-Output; % ForEach-Object; ? Where-Object
                """;
        for (String entry : table.split(";")) {
            String[] kv = entry.strip().split(" ");
            ALIASES.put(kv[0].toLowerCase(Locale.ROOT), kv[1]);
        }
    }

    private PsNames() {}

    /**
     * The cmdlet a name stands for in any of the shells ({@code rm}, {@code RM},
     * {@code Microsoft.PowerShell.Management\Remove-Item} are all {@code Remove-Item}), or null
     * when it names no known cmdlet or alias: where the meaning of a name only matters for being
     * careful (does it download, does it move the location), every shell's counts.
     */
    static String cmdlet(String name) {
        return cmdlet(name, Platform.WINDOWS);
    }

    /** The cmdlet a name stands for in the shell of {@code platform}, or null. */
    static String cmdlet(String name, Platform platform) {
        String lower = name.toLowerCase(Locale.ROOT);
        if (platform == Platform.UNIX && WINDOWS_ONLY.contains(lower)) {
            // the system's program runs; a cmdlet of that name would need its full name
            return null;
        }
        String function = FUNCTIONS.get(lower);
        return function != null ? function : resolve(name);
    }

    /** Whether {@code name} is an alias in some shell but not in this one. */
    static boolean aliasElsewhere(String name, Platform platform) {
        return platform == Platform.UNIX && WINDOWS_ONLY.contains(name.toLowerCase(Locale.ROOT));
    }

    private static String resolve(String name) {
        String n = name;
        int slash = n.lastIndexOf('\\');
        if (slash > 0) {
            String module = n.substring(0, slash).toLowerCase(Locale.ROOT);
            if (!module.startsWith("microsoft.powershell.") && !module.equals("storage") && !module.equals("cimcmdlets")) {
                return null;
            }
            n = n.substring(slash + 1);
        }
        String lower = n.toLowerCase(Locale.ROOT);
        String alias = slash > 0 ? null : ALIASES.get(lower);
        String target = alias != null ? alias : n;
        if (alias != null && FUNCTIONS.containsKey(alias.toLowerCase(Locale.ROOT))) {
            target = FUNCTIONS.get(alias.toLowerCase(Locale.ROOT));
        }
        PsCmdlets.Cmdlet known = PsCmdlets.get(target);
        return known != null ? known.name() : alias != null ? alias : null;
    }

    /**
     * The path a built-in location function goes to ({@code cd..} is {@code ..}, {@code cd\} the
     * drive root, {@code cd~} home, {@code D:} drive D on Windows), or null.
     */
    static String locationFunction(String name) {
        return switch (name.toLowerCase(Locale.ROOT)) {
            case "cd.." -> "..";
            case "cd\\" -> "\\";
            case "cd~" -> "~";
            default -> name.length() == 2 && name.charAt(1) == ':' && Character.isLetter(name.charAt(0)) ? name : null;
        };
    }

    /** Whether the name is an alias in some shell. */
    static boolean isAlias(String name) {
        return ALIASES.containsKey(name.toLowerCase(Locale.ROOT));
    }

    /** Whether the name is an alias in the shell of {@code platform} (aliases win over functions, functions over cmdlets). */
    static boolean isAlias(String name, Platform platform) {
        return isAlias(name) && !aliasElsewhere(name, platform);
    }

    /** Whether the name looks like a cmdlet (Verb-Noun), known or not. */
    static boolean looksLikeCmdlet(String name) {
        int dash = name.indexOf('-');
        return dash > 0 && dash < name.length() - 1 && name.chars().allMatch(c -> Character.isLetterOrDigit(c) || c == '-' || c == '_');
    }
}
