package io.shellgate.judge.internal.powershell;

import java.util.Locale;
import java.util.Set;

/**
 * .NET calls: the methods that only compute (string and collection helpers, math, paths as
 * text), and the ones that fetch from the network. Every other method may write, delete or start
 * a process, so calling it asks.
 */
final class PsDotNet {

    private static final Set<String> PURE_METHODS = Set.of("tostring", "tolower", "toupper", "tolowerinvariant",
            "toupperinvariant", "trim", "trimstart", "trimend", "split", "replace", "substring", "contains", "startswith",
            "endswith", "indexof", "lastindexof", "padleft", "padright", "equals", "gettype", "compareto", "gethashcode",
            "tochararray", "normalize", "where", "foreach", "count", "getenumerator", "containskey",
            "containsvalue", "toint32", "toint64", "todouble", "todatetime", "adddays", "addhours", "addminutes",
            "addseconds", "format", "isnullorempty", "isnullorwhitespace", "join", "concat", "abs", "round",
            "floor", "ceiling", "max", "min", "pow", "sqrt", "getfilename", "getextension", "getdirectoryname",
            "getfilenamewithoutextension", "combine", "getfullpath", "haschanged", "parse", "tryparse", "escape", "unescape",
            "ismatch", "match", "matches", "newguid", "tobase64string", "frombase64string", "getstring", "getbytes",
            "insert", "remove", "get_item", "getvalue", "item");
    private static final Set<String> PURE_TYPES = Set.of("math", "system.math", "string", "system.string", "io.path",
            "system.io.path", "datetime", "system.datetime", "int", "long", "double", "decimal", "guid", "system.guid",
            "regex", "system.text.regularexpressions.regex", "convert", "system.convert", "text.encoding",
            "system.text.encoding", "timespan", "system.timespan", "char", "bool", "version", "array", "system.array");
    private static final Set<String> DOWNLOADS = Set.of("downloadstring", "downloaddata", "downloadfile", "openread",
            "getstringasync", "getasync", "getbytearrayasync", "getstreamasync", "downloadstringtaskasync",
            "downloaddatataskasync", "getresponse", "readasstringasync");
    private static final Set<String> STATIC_DANGEROUS_TYPES = Set.of("io.file", "system.io.file", "io.directory",
            "system.io.directory", "diagnostics.process", "system.diagnostics.process", "scriptblock", "activator",
            "environment", "system.environment", "reflection.assembly", "system.reflection.assembly", "runtime.interopservices.marshal");

    private PsDotNet() {}

    /** Whether calling {@code method} on an object of unknown type only computes a value. */
    static boolean pureInstanceMethod(String method) {
        return method != null && PURE_METHODS.contains(method.toLowerCase(Locale.ROOT));
    }

    /** Whether {@code [type]::method(...)} only computes a value. */
    static boolean pureStaticMethod(String type, String method) {
        String t = type.toLowerCase(Locale.ROOT);
        return method != null && !STATIC_DANGEROUS_TYPES.contains(t) && PURE_TYPES.contains(t)
                && PURE_METHODS.contains(method.toLowerCase(Locale.ROOT));
    }

    /** Whether a method or type name fetches from the network. */
    static boolean downloads(String name) {
        if (name == null) {
            return false;
        }
        String n = name.toLowerCase(Locale.ROOT);
        return DOWNLOADS.contains(n) || n.endsWith("webclient") || n.endsWith("httpclient") || n.endsWith("webrequest")
                || n.endsWith("xmlhttp");
    }

    /** Whether a cmdlet or program fetches from the network. */
    static boolean downloader(String command) {
        String n = command.toLowerCase(Locale.ROOT);
        return n.equals("invoke-webrequest") || n.equals("invoke-restmethod") || n.equals("start-bitstransfer")
                || n.equals("curl") || n.equals("wget") || n.equals("bitsadmin") || n.equals("certutil");
    }
}
