package io.shellgate.judge.internal.powershell;

import com.google.re2j.Matcher;
import com.google.re2j.Pattern;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * {@code Get-CimInstance} and {@code Get-WmiObject}: what a class returns decides, so only a
 * closed list of classes of the default namespace that describe the machine (no saved
 * environment variables, product keys, other processes' command lines or recovery keys) reads
 * without asking. A class named at run time, another namespace or a query that is not a plain
 * {@code SELECT ... FROM class} asks.
 */
final class PsCim {

    private static final Set<String> HARMLESS = Set.of("win32_operatingsystem", "win32_computersystem", "win32_processor",
            "win32_bios", "win32_baseboard", "win32_logicaldisk", "win32_volume", "win32_diskdrive", "win32_diskpartition",
            "win32_physicalmemory", "win32_videocontroller", "win32_networkadapter", "win32_networkadapterconfiguration",
            "win32_timezone", "win32_battery", "win32_quickfixengineering", "win32_service", "win32_printer",
            "win32_pnpentity", "win32_systemenclosure", "win32_sounddevice", "win32_desktopmonitor", "win32_localtime",
            "win32_utctime", "win32_pagefileusage", "win32_perfformatteddata_perfos_processor",
            "win32_perfformatteddata_perfos_memory", "cim_processor", "cim_logicaldisk", "cim_operatingsystem",
            "cim_computersystem", "cim_physicalmemory");
    private static final Set<String> NAMESPACES = Set.of("root/cimv2", "root\\cimv2", "root/cimv2/", "/root/cimv2");
    private static final Pattern QUERY = Pattern.compile("(?i)^\\s*select\\s+[\\w\\s,*]+\\s+from\\s+(\\w+)\\s*(where\\s.*)?$");

    private PsCim() {}

    /** Why the call asks, or null when it reads a listed class of the default namespace. */
    static String why(String cmdlet, PsBinding b, PowerShellJudge ps) {
        if (b.options.contains("-List")) {
            return null;
        }
        for (PsAst.Expr e : b.get("Namespace")) {
            String ns = PsValues.value(e, ps.host);
            if (ns == null || !NAMESPACES.contains(ns.toLowerCase(Locale.ROOT))) {
                return cmdlet + " reads the namespace " + (ns == null ? "named at run time" : ns) + ", whose classes are not on"
                        + " shellgate's list";
            }
        }
        List<PsAst.Expr> classes = b.get(cmdlet.equals("Get-WmiObject") ? "Class" : "ClassName");
        List<PsAst.Expr> queries = b.get("Query");
        if (classes.isEmpty() && queries.isEmpty()) {
            return cmdlet + " reads instances named by its input or a resource URI";
        }
        for (PsAst.Expr e : classes) {
            String why = named(cmdlet, PsValues.value(e, ps.host));
            if (why != null) {
                return why;
            }
        }
        for (PsAst.Expr e : queries) {
            String q = PsValues.value(e, ps.host);
            Matcher m = q == null ? null : QUERY.matcher(q);
            if (m == null || !m.matches()) {
                return cmdlet + " runs a query shellgate does not read (" + e.span().of(ps.code) + ")";
            }
            String why = named(cmdlet, m.group(1));
            if (why != null) {
                return why;
            }
        }
        return null;
    }

    private static String named(String cmdlet, String cls) {
        if (cls == null) {
            return cmdlet + " reads a class named at run time";
        }
        return HARMLESS.contains(cls.toLowerCase(Locale.ROOT)) ? null : cmdlet + " reads the class " + cls + ", which is not on"
                + " the list of classes that only describe the machine (others return saved environment variables, product"
                + " keys, other processes' command lines)";
    }
}
