package io.shellgate.judge.internal.windows;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Windows paths as the file system and PowerShell read them, for both dialects: separators
 * either way, drive letters and drive-relative forms ({@code C:x}), the NT prefixes
 * ({@code \\?\}, {@code \\.\}), provider qualifiers ({@code FileSystem::},
 * {@code Microsoft.PowerShell.Core\Registry::}), network shares in every spelling, alternate data
 * streams ({@code x::$DATA}, {@code x:s}, {@code dir::$INDEX_ALLOCATION}), trailing dots and
 * spaces that Windows drops, the 8.3 short names of the system directories, and the compatibility
 * junctions ({@code Documents and Settings}, {@code Application Data}...) to the folders they reach.
 */
public final class WindowsPaths {

    private static final Map<String, String> SHORT_NAMES = Map.of("progra~1", "program files", "progra~2",
            "program files (x86)", "progra~3", "programdata", "docume~1", "documents and settings", "window~1", "windows");
    private static final Set<String> PROVIDERS = Set.of("filesystem", "registry", "alias", "environment", "function",
            "variable", "certificate", "wsman");

    private WindowsPaths() {}

    /** Where a path leads, before any working directory is applied. */
    public enum Kind {
        /** A file or directory on a local drive, or relative to the current location. */
        FILE,
        /** A share on another machine ({@code \\host\share}, {@code //host/share}, {@code \\?\UNC\…}). */
        NETWORK,
        /** A device or object-manager name ({@code \\.\pipe\x}, {@code \\.\PhysicalDrive0}, {@code \\?\GLOBALROOT\…}). */
        DEVICE,
        /** A PowerShell drive or provider that is not the file system ({@code Env:}, {@code HKLM:}, {@code Registry::}). */
        DRIVE
    }

    /**
     * A path read syntactically.
     *
     * @param path the path with forward slashes, without qualifier, NT prefix or streams
     * @param drive for {@link Kind#DRIVE}, the drive or provider name as written
     */
    public record Parsed(Kind kind, String path, String drive) {}

    /**
     * Reads {@code text} as a path: what kind of place it names, and its plain form. PowerShell
     * also reads provider qualifiers and drives such as {@code Env:}; for cmd a colon after a name
     * only starts a stream.
     */
    public static Parsed parse(String text, boolean powershell) {
        String p = text.replace('\\', '/');
        int qualifier = p.indexOf("::");
        if (powershell && qualifier > 0 && provider(p.substring(0, qualifier)) != null) {
            String provider = provider(p.substring(0, qualifier));
            p = p.substring(qualifier + 2);
            if (!provider.equals("filesystem")) {
                String drive = providerDrive(provider, p);
                String rest = drive.equals("hklm") || drive.equals("hkcu") ? p.substring(Math.max(0, p.indexOf('/') + 1)) : p;
                if (drive.equals(rest)) {
                    rest = "";
                }
                return new Parsed(Kind.DRIVE, drive + ":/" + rest, drive);
            }
        }
        if (p.startsWith("//")) {
            if (!p.startsWith("//?/") && !p.startsWith("//./")) {
                return new Parsed(Kind.NETWORK, p, null);
            }
            String rest = p.substring(4);
            if (rest.regionMatches(true, 0, "unc/", 0, 4) || rest.equalsIgnoreCase("unc")) {
                return new Parsed(Kind.NETWORK, p, null);
            }
            if (!letterDrive(rest)) {
                return new Parsed(Kind.DEVICE, p, null);
            }
            p = rest;
        }
        if (powershell && driveLike(p)) {
            return new Parsed(Kind.DRIVE, p, p.substring(0, p.indexOf(':')).toLowerCase(Locale.ROOT));
        }
        return new Parsed(Kind.FILE, withoutStreams(p), null);
    }

    /** The drive a provider-qualified path is on: {@code Registry::HKEY_CURRENT_USER\x} is on {@code hkcu}. */
    private static String providerDrive(String provider, String path) {
        String first = path.substring(0, path.indexOf('/') < 0 ? path.length() : path.indexOf('/')).toLowerCase(Locale.ROOT);
        return switch (provider) {
            case "registry" -> first.equals("hkey_local_machine") || first.equals("hklm") ? "hklm"
                    : first.equals("hkey_current_user") || first.equals("hkcu") ? "hkcu" : "registry";
            case "environment" -> "env";
            case "certificate" -> "cert";
            default -> provider;
        };
    }

    /** The provider a qualifier names ({@code FileSystem}, {@code Microsoft.PowerShell.Core\Registry}), lower case, or null. */
    private static String provider(String qualifier) {
        String q = qualifier.substring(qualifier.lastIndexOf('/') + 1).toLowerCase(Locale.ROOT);
        return PROVIDERS.contains(q) ? q : null;
    }

    /** {@code C:}, {@code C:/...} or {@code C:x}: a drive letter and a colon. */
    private static boolean letterDrive(String p) {
        return p.length() >= 2 && p.charAt(1) == ':' && isAsciiLetter(p.charAt(0));
    }

    private static boolean isAsciiLetter(char c) {
        return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z';
    }

    /** Drops the stream of every name ({@code id_rsa::$DATA}, {@code x:s:$DATA}, {@code .ssh::$INDEX_ALLOCATION}). */
    static String withoutStreams(String p) {
        int from = letterDrive(p) ? 2 : 0;
        if (p.indexOf(':', from) < 0) {
            return p;
        }
        StringBuilder sb = new StringBuilder(p.substring(0, from));
        boolean inStream = false;
        for (int i = from; i < p.length(); i++) {
            char c = p.charAt(i);
            if (c == '/') {
                inStream = false;
            } else if (c == ':') {
                inStream = true;
            }
            if (!inStream) {
                sb.append(c);
            }
        }
        return sb.toString();
    }

    /**
     * The absolute forms {@code text} may name, lower case, as the policy's rules compare them:
     * one, or two for a path from the root of the current drive ({@code \Windows} is
     * {@code c:/windows} on Windows and {@code /windows} elsewhere). A drive-relative path
     * ({@code C:x}) is taken from that drive's root, and {@code C:} alone is the drive itself.
     *
     * @param cwd the working directory, forward slashes; null when unknown (a relative path then has no form)
     * @param home the home directory for {@code ~}, forward slashes, or null
     */
    public static List<String> absolute(String text, String cwd, String home) {
        List<String> out = new ArrayList<>();
        for (String p : located(text, cwd, home, true, true)) {
            out.add(p.toLowerCase(Locale.ROOT));
        }
        return out;
    }

    /**
     * The absolute forms of a path that is read, with its case kept (for the file system) and the
     * same rules as {@link #absolute}, except that a drive-relative path ({@code C:x}) on a drive
     * other than the working directory's has no form: that drive's current directory is not known.
     */
    public static List<String> located(String text, String cwd, String home, boolean powershell) {
        return located(text, cwd, home, powershell, false);
    }

    private static List<String> located(String text, String cwd, String home, boolean powershell, boolean fromRoot) {
        Parsed parsed = parse(text, powershell);
        String p = parsed.kind() == Kind.FILE || parsed.kind() == Kind.DRIVE ? parsed.path() : text.replace('\\', '/');
        if ((p.equals("~") || p.startsWith("~/")) && home != null) {
            p = home + p.substring(1);
        }
        List<String> out = new ArrayList<>();
        if (letterDrive(p)) {
            String rest = p.substring(2);
            if (rest.isEmpty() || rest.startsWith("/")) {
                out.add(normalise(rest.isEmpty() ? p + "/" : p));
            } else if (cwd != null && cwd.length() >= 2 && cwd.regionMatches(true, 0, p, 0, 2)) {
                out.add(normalise(cwd + "/" + rest));
            } else if (fromRoot) {
                out.add(normalise(p.substring(0, 2) + "/" + rest));
            }
        } else if (p.startsWith("/")) {
            out.add(normalise(p));
            if (!p.startsWith("//")) {
                String drive = cwd != null && letterDrive(cwd) ? cwd.substring(0, 2) : "c:";
                out.add(normalise(drive + p));
            }
        } else if (parsed.kind() == Kind.DRIVE) {
            out.add(normalise(p));
        } else if (cwd != null) {
            out.add(normalise(cwd + "/" + p));
        }
        return out;
    }

    /** A PowerShell drive such as {@code HKLM:} or {@code Env:}: a name of two or more letters and a colon. */
    public static boolean driveLike(String p) {
        int colon = p.indexOf(':');
        if (colon < 2) {
            return false;
        }
        for (int i = 0; i < colon; i++) {
            if (!Character.isLetterOrDigit(p.charAt(i)) && p.charAt(i) != '_') {
                return false;
            }
        }
        return true;
    }

    /** The drive name of a location or absolute path that is not on the file system ({@code env}, {@code hkcu}), or null. */
    public static String nonFileDrive(String location) {
        return location != null && driveLike(location) ? location.substring(0, location.indexOf(':')).toLowerCase(Locale.ROOT)
                : null;
    }

    /** Collapses separators, {@code .} and {@code ..}; drops trailing dots and spaces of names; keeps the case. */
    static String normalise(String path) {
        String prefix = "";
        String rest = path;
        if (path.startsWith("//")) {
            prefix = "//";
            rest = path.substring(2);
        } else if (letterDrive(path)) {
            prefix = path.substring(0, 2) + "/";
            rest = path.substring(2);
        } else if (driveLike(path)) {
            int colon = path.indexOf(':');
            prefix = path.substring(0, colon + 1) + "/";
            rest = path.substring(colon + 1);
        } else if (path.startsWith("/")) {
            prefix = "/";
        }
        List<String> parts = new ArrayList<>();
        for (String seg : split(rest, '/')) {
            String s = seg.equals(".") || seg.equals("..") ? seg : stripTrailing(seg);
            String full = SHORT_NAMES.get(s.toLowerCase(Locale.ROOT));
            s = full != null ? full : s;
            if (s.isEmpty() || s.equals(".")) {
                continue;
            }
            if (s.equals("..")) {
                if (!parts.isEmpty()) {
                    parts.removeLast();
                }
                continue;
            }
            parts.add(s);
        }
        if (letterDrive(prefix)) {
            junctions(parts);
        }
        String joined = prefix + String.join("/", parts);
        return joined.length() > 1 && joined.endsWith("/") && !joined.endsWith(":/") ? joined.substring(0, joined.length() - 1) : joined;
    }

    /**
     * Follows the compatibility junctions Windows keeps for programs written before Vista
     * ({@code Documents and Settings}, {@code All Users}, a profile's {@code Application Data} and
     * {@code Local Settings}...), so that a path through them is read as the folder it reaches.
     */
    private static void junctions(List<String> parts) {
        for (int round = 0; round < 8; round++) {
            if (!junction(parts)) {
                return;
            }
        }
    }

    private static boolean junction(List<String> parts) {
        List<String> lower = parts.stream().map(p -> p.toLowerCase(Locale.ROOT)).toList();
        if (lower.isEmpty()) {
            return false;
        }
        if (lower.getFirst().equals("documents and settings")) {
            parts.set(0, "Users");
            return true;
        }
        if (lower.getFirst().equals("programdata") && lower.size() > 1) {
            String to = MACHINE_JUNCTIONS.get(lower.get(1));
            if (to != null) {
                replace(parts, 0, 2, to);
                return true;
            }
        }
        if (!lower.getFirst().equals("users") || lower.size() < 2) {
            return false;
        }
        if (lower.get(1).equals("all users")) {
            replace(parts, 0, 2, "ProgramData");
            return true;
        }
        if (lower.get(1).equals("default user")) {
            parts.set(1, "Default");
            return true;
        }
        if (lower.size() > 2 && PROFILE_JUNCTIONS.containsKey(lower.get(2))) {
            replace(parts, 2, 3, PROFILE_JUNCTIONS.get(lower.get(2)));
            return true;
        }
        if (lower.size() > 4 && lower.get(2).equals("appdata") && lower.get(3).equals("local")
                && LOCAL_JUNCTIONS.containsKey(lower.get(4))) {
            replace(parts, 2, 5, LOCAL_JUNCTIONS.get(lower.get(4)));
            return true;
        }
        return false;
    }

    private static void replace(List<String> parts, int from, int to, String with) {
        parts.subList(from, to).clear();
        parts.addAll(from, List.of(with.split("/")));
    }

    private static final Map<String, String> PROFILE_JUNCTIONS = Map.of("application data", "AppData/Roaming",
            "local settings", "AppData/Local", "my documents", "Documents", "cookies", "AppData/Roaming/Microsoft/Windows/INetCookies",
            "recent", "AppData/Roaming/Microsoft/Windows/Recent", "sendto", "AppData/Roaming/Microsoft/Windows/SendTo",
            "start menu", "AppData/Roaming/Microsoft/Windows/Start Menu", "templates", "AppData/Roaming/Microsoft/Windows/Templates",
            "nethood", "AppData/Roaming/Microsoft/Windows/Network Shortcuts",
            "printhood", "AppData/Roaming/Microsoft/Windows/Printer Shortcuts");
    private static final Map<String, String> LOCAL_JUNCTIONS = Map.of("application data", "AppData/Local",
            "history", "AppData/Local/Microsoft/Windows/History",
            "temporary internet files", "AppData/Local/Microsoft/Windows/INetCache");
    private static final Map<String, String> MACHINE_JUNCTIONS = Map.of("application data", "ProgramData",
            "desktop", "Users/Public/Desktop", "documents", "Users/Public/Documents",
            "start menu", "ProgramData/Microsoft/Windows/Start Menu", "templates", "ProgramData/Microsoft/Windows/Templates");

    private static String stripTrailing(String seg) {
        int end = seg.length();
        while (end > 0 && (seg.charAt(end - 1) == '.' || seg.charAt(end - 1) == ' ')) {
            end--;
        }
        return seg.substring(0, end);
    }

    /** {@code text} cut at every {@code separator}, empty parts kept (no regular expression on untrusted text). */
    public static List<String> split(String text, char separator) {
        List<String> out = new ArrayList<>();
        int start = 0;
        for (int i = 0; i <= text.length(); i++) {
            if (i == text.length() || text.charAt(i) == separator) {
                out.add(text.substring(start, i));
                start = i + 1;
            }
        }
        return out;
    }

    /** A path with forward slashes, for the working and home directories. */
    public static String slashes(String path) {
        return path == null ? null : path.replace('\\', '/');
    }
}
