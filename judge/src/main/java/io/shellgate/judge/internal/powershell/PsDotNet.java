package io.shellgate.judge.internal.powershell;

import java.util.Locale;
import java.util.Set;

/**
 * The .NET types, methods, cmdlets and programs that fetch from the network, for the
 * download-to-shell rule. Which methods may run without asking is {@link PsTypes}' list.
 */
final class PsDotNet {

    private static final Set<String> DOWNLOADS = Set.of("downloadstring", "downloaddata", "downloadfile", "openread",
            "getstringasync", "getasync", "getbytearrayasync", "getstreamasync", "downloadstringtaskasync",
            "downloaddatataskasync", "getresponse", "readasstringasync");

    private PsDotNet() {}

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
