package io.shellgate.judge.internal.windows;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Windows paths as the file system reads them: separators either way, drive letters, the NT
 * prefixes, PowerShell provider qualifiers, trailing dots and spaces that Windows drops, and the
 * 8.3 short names of the system directories. Results use forward slashes and are lower case, as
 * Windows compares names.
 */
public final class WindowsPaths {

    private static final Map<String, String> SHORT_NAMES = Map.of("progra~1", "program files", "progra~2",
            "program files (x86)", "progra~3", "programdata", "docume~1", "documents and settings", "window~1", "windows");

    private WindowsPaths() {}

    /**
     * The absolute forms {@code text} may name: one, or two for a path from the root of the current
     * drive ({@code \Windows} is {@code c:/windows} on Windows and {@code /windows} elsewhere).
     *
     * @param cwd the working directory, forward slashes; null when unknown (a relative path then has no form)
     * @param home the home directory for {@code ~}, forward slashes, or null
     */
    public static List<String> absolute(String text, String cwd, String home) {
        String p = text.replace('\\', '/');
        int provider = p.indexOf("::");
        if (provider > 0) {
            p = p.substring(provider + 2);
        }
        if (p.startsWith("//?/") || p.startsWith("//./")) {
            p = p.substring(4);
        }
        if ((p.equals("~") || p.startsWith("~/")) && home != null) {
            p = home + p.substring(1);
        }
        List<String> out = new ArrayList<>();
        if (p.length() >= 2 && p.charAt(1) == ':' && Character.isLetter(p.charAt(0))) {
            // "c:" alone is the working directory on drive c; for the critical check, the drive itself
            out.add(normalise(p.length() == 2 ? p + "/" : p));
        } else if (p.startsWith("/")) {
            out.add(normalise(p));
            if (!p.startsWith("//")) {
                String drive = cwd != null && cwd.length() >= 2 && cwd.charAt(1) == ':' ? cwd.substring(0, 2) : "c:";
                out.add(normalise(drive + p));
            }
        } else if (driveLike(p)) {
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

    /** Collapses separators, {@code .} and {@code ..}; drops trailing dots and spaces of names; lower case. */
    static String normalise(String path) {
        String lower = path.toLowerCase(Locale.ROOT);
        String prefix = "";
        String rest = lower;
        if (lower.startsWith("//")) {
            prefix = "//";
            rest = lower.substring(2);
        } else if (lower.length() >= 2 && lower.charAt(1) == ':') {
            prefix = lower.substring(0, 2) + "/";
            rest = lower.substring(2);
        } else if (driveLike(lower)) {
            int colon = lower.indexOf(':');
            prefix = lower.substring(0, colon + 1) + "/";
            rest = lower.substring(colon + 1);
        } else if (lower.startsWith("/")) {
            prefix = "/";
        }
        List<String> parts = new ArrayList<>();
        for (String seg : split(rest, '/')) {
            String s = seg.equals(".") || seg.equals("..") ? seg : stripTrailing(seg);
            s = SHORT_NAMES.getOrDefault(s, s);
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
        String joined = prefix + String.join("/", parts);
        return joined.length() > 1 && joined.endsWith("/") && !joined.endsWith(":/") ? joined.substring(0, joined.length() - 1) : joined;
    }

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
