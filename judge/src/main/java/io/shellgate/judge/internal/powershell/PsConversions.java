package io.shellgate.judge.internal.powershell;

import java.util.Set;

/**
 * Conversions ({@code [T]value}, {@code value -as [T]}): PowerShell converts by calling T's
 * constructor or its {@code Parse} method, so {@code [IO.StreamWriter]'x'} truncates a file and
 * {@code [Net.Sockets.UdpClient]4444} opens a port. Only conversions to the types listed here,
 * whose constructors and parsers compute a value, go without asking; a path made into a
 * {@code FileInfo} or {@code DirectoryInfo} is judged as the path it names.
 */
final class PsConversions {

    /** Targets whose conversion only computes a value (canonical names, see {@link PsTypes#canonical}). */
    private static final Set<String> VALUES = Set.of(PsTypes.STRING, PsTypes.OBJECT, PsTypes.CUSTOM, PsTypes.HASHTABLE,
            PsTypes.DATETIME, "system.char", "system.int16", "system.int32", "system.int64", "system.uint16", "system.uint32",
            "system.uint64", "system.byte", "system.sbyte", "system.double", "system.single", "system.decimal", "system.boolean",
            "system.timespan", "system.guid", "system.version", "system.text.regularexpressions.regex", "system.array",
            "system.management.automation.psobject", "system.management.automation.scriptblock", "system.type", "system.uri",
            "system.numerics.biginteger", "system.management.automation.semanticversion", "system.datetimeoffset", "system.void",
            "system.xml", "system.xml.xmldocument", "system.management.automation.switchparameter", "system.switch",
            "system.collections.arraylist", "system.collections.generic.list", "system.text.stringbuilder",
            "system.collections.specialized.ordereddictionary");

    /** Targets that are a path's file-system item: creating one reads nothing, its properties read the item's metadata. */
    private static final Set<String> ITEMS = Set.of("system.io.fileinfo", "system.io.directoryinfo");

    private PsConversions() {}

    /** Why the conversion asks, or null when it only computes a value. */
    static String why(PsAst.Compound cast, PowerShellJudge ps) {
        if (!(cast.parts().getFirst() instanceof PsAst.TypeName t)) {
            return "converts to a type named at run time (" + cast.parts().getFirst().span().of(ps.code) + ")";
        }
        String type = PsTypes.canonical(t.name());
        if (VALUES.contains(type) || t.name().equalsIgnoreCase("ref") || t.name().equalsIgnoreCase("xml")
                || t.name().equalsIgnoreCase("ordered")) {
            return null;
        }
        if (ITEMS.contains(type)) {
            String path = PsValues.value(cast.parts().get(1), ps.host);
            if (path != null && !path.startsWith("\\\\") && !path.startsWith("//")) {
                return null;
            }
            return "makes a " + t.name() + " of " + (path == null ? "a path computed at run time" : "the share " + path)
                    + ", whose properties reach it";
        }
        return "converts to [" + t.name() + "], which runs that type's constructor or parser (it can open files, ports or"
                + " connections); shellgate only allows conversions to the value types it lists";
    }
}
