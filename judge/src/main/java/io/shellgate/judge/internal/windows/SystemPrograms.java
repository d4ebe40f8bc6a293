package io.shellgate.judge.internal.windows;

import io.shellgate.judge.Span;
import io.shellgate.rules.Tier;
import java.util.ArrayList;
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

    /**
     * findstr's files: after the pattern (unless /c: or /g: gave it), and those /f: and /g: name.
     * {@code /d:dir;dir} looks for each file in those directories, {@code /s} in every directory
     * under them (or under the current one): a file operand is then a name pattern, not a path.
     */
    private static void findstr(WindowsHost host, String cwd, List<String> args, Span span) {
        boolean patternGiven = false;
        boolean first = true;
        boolean recursive = false;
        List<String> dirs = new ArrayList<>();
        List<String> files = new ArrayList<>();
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
            } else if (lower.startsWith("/d:")) {
                dirs.addAll(List.of(a.substring(3).split(";")));
            } else if (isSwitch(a)) {
                // glued switches (/s/i, /si) count too
                recursive |= !lower.contains(":") && lower.substring(1).replace("/", "").contains("s");
            } else if (first && !patternGiven) {
                first = false;
            } else {
                files.add(a);
            }
        }
        if (dirs.isEmpty()) {
            dirs.add(".");
        }
        for (String dir : dirs) {
            for (String file : files) {
                String path = dir.equals(".") ? file : dir + "\\" + file;
                if (!recursive) {
                    read(host, cwd, path, "findstr", span);
                    continue;
                }
                String slashed = path.replace('/', '\\');
                int cut = slashed.lastIndexOf('\\');
                String base = cut < 0 ? "." : slashed.substring(0, cut + 1);
                String name = slashed.substring(cut + 1);
                WindowsReads.check(host, base, cwd, new WindowsReads.Read("findstr /s", WindowsReads.Use.TREE, false, false,
                        n -> Wildcards.matchesName(name, n), span));
            }
        }
    }

    /**
     * where: {@code /r DIR} searches a tree, {@code path:pattern} lists the names in a directory,
     * {@code $VAR:pattern} the directories an environment variable names (PATH only unasked).
     */
    private static void where(WindowsHost host, String cwd, List<String> args, Span span) {
        if (args.contains(null)) {
            dynamic(host, "where", span);
            return;
        }
        for (int i = 0; i + 1 < args.size(); i++) {
            if (args.get(i).equalsIgnoreCase("/r")) {
                WindowsReads.check(host, args.get(i + 1), cwd, new WindowsReads.Read("where /r", WindowsReads.Use.RECURSIVE, false,
                        false, span));
                i++;
            }
        }
        for (String a : args) {
            int colon = a.lastIndexOf(':');
            if (isSwitch(a) || colon <= 0 || colon == 1 && a.length() > 2 && (a.charAt(2) == '\\' || a.charAt(2) == '/')) {
                continue;
            }
            String place = a.substring(0, colon);
            if (place.startsWith("$")) {
                if (!place.equalsIgnoreCase("$PATH")) {
                    host.report(WindowsChecks.DYNAMIC_ARGUMENT, Tier.ASK, "where " + a + " lists the directories the variable "
                            + place.substring(1) + " names", span);
                }
                continue;
            }
            WindowsReads.check(host, place, cwd, new WindowsReads.Read("where", WindowsReads.Use.READ, false, false, span));
        }
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
