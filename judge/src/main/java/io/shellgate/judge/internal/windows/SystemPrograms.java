package io.shellgate.judge.internal.windows;

import io.shellgate.judge.Span;
import io.shellgate.rules.Tier;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Windows' own programs (those in System32) are judged by what they do on Windows, never by the
 * bash judge's model of a Unix program of the same name: Windows {@code sort /o out.txt} writes a
 * file, {@code expand a b} unpacks a cabinet into {@code b}, {@code fc} compares files where bash's
 * {@code fc} runs history. A few are read-only with the grammar below; every other name on the list
 * asks. cmd always runs them (it exists only on Windows); PowerShell does when it runs on Windows.
 */
public final class SystemPrograms {

    /** Read-only, with the options each accepts checked below. */
    private static final Set<String> READ_ONLY = Set.of("sort", "find", "findstr", "more", "tree", "where", "whoami", "hostname",
            "help");
    /**
     * Names a Unix program has too (the bash judge would take them for it), and other system programs
     * that change the machine or ask the network; they are not modelled here and ask. Programs that
     * behave as their Unix namesakes ({@code curl}, {@code tar}, {@code ssh}, {@code ping}) and those
     * the policy's deny rules name are left to those rules and to the bash judge.
     */
    private static final Set<String> NOT_MODELLED = Set.of("expand", "fc", "comp", "print", "replace", "convert", "label",
            "timeout", "mode", "at", "edit", "clip", "chcp", "subst", "attrib", "recover", "sc", "route", "arp", "logoff", "msg",
            "query", "setx", "xcopy", "robocopy", "icacls", "cacls", "takeown", "extrac32", "makecab", "waitfor", "choice",
            "runas", "klist", "cmdkey", "vaultcmd", "dsregcmd", "wevtutil", "mountvol", "openfiles", "pnputil", "powercfg",
            "tzutil", "w32tm", "ipconfig", "tasklist", "systeminfo", "getmac", "nslookup", "tracert", "pathping", "gpresult",
            "driverquery", "qprocess", "quser", "doskey", "forfiles", "fsutil", "compact", "sfc", "dism", "chkdsk", "wsl");

    /** Windows sort's switches as {@code name:shortest}: a switch names one when it is a prefix of it at least that long. */
    private static final List<String> SORT_OPTIONS = List.of("record_maximum:rec", "reverse:r", "locale:l", "memory:m",
            "unique:uniq", "case_sensitive:c", "output:o", "temporary_directory:t");

    private SystemPrograms() {}

    /** Whether {@code base} (lower case, without {@code .exe}) is one of Windows' own programs judged here. */
    public static boolean covers(String base) {
        return READ_ONLY.contains(base) || NOT_MODELLED.contains(base);
    }

    /**
     * Judges the system program {@code base} with its arguments (null: not known here); paths it
     * reads are checked from {@code cwd}. Call only when {@link #covers} says so.
     */
    public static void judge(WindowsHost host, String cwd, String base, List<String> args, Span span) {
        if (!READ_ONLY.contains(base)) {
            host.report(WindowsChecks.NOT_READ_ONLY, Tier.ASK, base + " is a Windows program shellgate does not model (it is not"
                    + " the Unix program of that name); it may change the machine", span);
            return;
        }
        switch (base) {
            case "sort" -> sort(host, cwd, args, span);
            case "find" -> find(host, cwd, args, span);
            case "findstr" -> findstr(host, cwd, args, span);
            case "more", "tree" -> {
                for (String a : args) {
                    if (a == null || !isSwitch(a) && !a.startsWith("+")) {
                        read(host, cwd, a, base, span);
                    }
                }
            }
            case "where" -> where(host, cwd, args, span);
            default -> {
                // whoami, hostname and help only print (Windows' hostname cannot set the name)
                if (args.contains(null)) {
                    dynamic(host, base, span);
                }
            }
        }
    }

    /** Windows' sort: {@code /o} writes the output to a file, {@code /t} puts temporary files in a directory. */
    private static void sort(WindowsHost host, String cwd, List<String> args, Span span) {
        for (int i = 0; i < args.size(); i++) {
            String a = args.get(i);
            if (a == null) {
                dynamic(host, "sort", span);
                return;
            }
            if (!isSwitch(a) || a.length() < 2) {
                read(host, cwd, a, "sort", span);
                continue;
            }
            String o = a.substring(1).toLowerCase(Locale.ROOT);
            if (o.startsWith("+") && o.length() > 1 && o.substring(1).chars().allMatch(Character::isDigit)) {
                continue;
            }
            String option = option(o, SORT_OPTIONS);
            if (option == null) {
                host.report(WindowsChecks.OPTION_NOT_PERMITTED, Tier.ASK, "sort: the option " + a + " is not one shellgate knows",
                        span);
                return;
            }
            switch (option) {
                case "output" -> {
                    host.report(WindowsChecks.WRITES_FILE, Tier.ASK, "sort " + a + " writes its output to a file", span);
                    return;
                }
                case "temporary_directory" -> {
                    host.report(WindowsChecks.WRITES_FILE, Tier.ASK, "sort " + a + " writes temporary files into a directory",
                            span);
                    return;
                }
                case "record_maximum", "locale", "memory" -> i++;
                default -> {
                    // reverse, unique, case_sensitive only change the order
                }
            }
        }
    }

    /** Windows' find: switches, the quoted text, then the files it reads (standard input without one). */
    private static void find(WindowsHost host, String cwd, List<String> args, Span span) {
        boolean text = false;
        for (String a : args) {
            if (a == null) {
                dynamic(host, "find", span);
                return;
            }
            if (isSwitch(a) && !text) {
                String o = a.substring(1).toLowerCase(Locale.ROOT);
                if (!Set.of("v", "c", "n", "i", "off", "offline").contains(o)) {
                    host.report(WindowsChecks.OPTION_NOT_PERMITTED, Tier.ASK, "find: the option " + a + " is not one shellgate knows",
                            span);
                    return;
                }
            } else if (!text) {
                text = true;
            } else {
                read(host, cwd, a, "find", span);
            }
        }
    }

    /** findstr's files: after the pattern (unless /c: or /g: gave it), and those /f: and /g: name. */
    private static void findstr(WindowsHost host, String cwd, List<String> args, Span span) {
        boolean patternGiven = false;
        boolean first = true;
        for (String a : args) {
            if (a == null) {
                read(host, cwd, null, "findstr", span);
                continue;
            }
            String lower = a.toLowerCase(Locale.ROOT);
            if (lower.startsWith("/c:") || lower.startsWith("/g:")) {
                patternGiven = true;
            }
            if (lower.startsWith("/f:") || lower.startsWith("/g:")) {
                read(host, cwd, a.substring(3), "findstr", span);
            } else if (!isSwitch(a)) {
                if (first && !patternGiven) {
                    first = false;
                } else {
                    read(host, cwd, a, "findstr", span);
                }
            }
        }
    }

    /** where: {@code /r DIR} searches a tree; {@code $VAR:pattern} and {@code path:pattern} look in places. */
    private static void where(WindowsHost host, String cwd, List<String> args, Span span) {
        if (args.contains(null)) {
            dynamic(host, "where", span);
            return;
        }
        for (int i = 0; i + 1 < args.size(); i++) {
            if (args.get(i).equalsIgnoreCase("/r")) {
                read(host, cwd, args.get(i + 1), "where", span);
            }
        }
        args.stream().filter(a -> a.contains(":") && !isSwitch(a)).forEach(a -> WindowsReads.check(host,
                a.substring(0, a.lastIndexOf(':')), cwd, new WindowsReads.Read("where", WindowsReads.Use.RESOLVE, false, false, span)));
    }

    /**
     * The option a switch names: each entry is {@code name:shortest}, and a switch names it when it
     * is a prefix of the name at least as long as the shortest form (Windows' sort reads them so).
     */
    private static String option(String given, List<String> names) {
        for (String entry : names) {
            String name = entry.substring(0, entry.indexOf(':'));
            String shortest = entry.substring(entry.indexOf(':') + 1);
            if (given.startsWith(shortest) && name.startsWith(given)) {
                return name;
            }
        }
        return null;
    }

    private static void read(WindowsHost host, String cwd, String path, String who, Span span) {
        WindowsReads.check(host, path, cwd, new WindowsReads.Read(who, WindowsReads.Use.READ, false, true, span));
    }

    private static void dynamic(WindowsHost host, String who, Span span) {
        host.report(WindowsChecks.DYNAMIC_ARGUMENT, Tier.ASK, who + " gets an argument whose value is not known here", span);
    }

    /** Whether an argument is a switch ({@code /s}, {@code /enum}, {@code /a:-h}, {@code /s/q}) rather than a path ({@code /home/x}). */
    public static boolean isSwitch(String a) {
        if (a == null || a.length() < 2 || !a.startsWith("/")) {
            return false;
        }
        if (a.indexOf('/', 1) < 0) {
            return true;
        }
        // glued switches are short (/s/q, /a:h/b); a longer part makes it a path
        for (String part : WindowsPaths.split(a.substring(1), '/')) {
            int colon = part.indexOf(':');
            if ((colon >= 0 ? colon : part.length()) > 3) {
                return false;
            }
        }
        return true;
    }
}
