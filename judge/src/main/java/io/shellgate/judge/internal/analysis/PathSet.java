package io.shellgate.judge.internal.analysis;

import com.google.re2j.Pattern;
import io.shellgate.judge.internal.syntax.Globs;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A set of path patterns from the policy. {@code ~} stands for the home directory of the request
 * being judged; {@code *} stays within a segment, {@code **} crosses segments. Patterns are
 * compiled once per home directory into one RE2 expression, which runs in linear time on the
 * untrusted paths it is matched against.
 */
final class PathSet {

    private final String name;
    private final List<String> patterns;
    private final ConcurrentHashMap<String, Compiled> byHome = new ConcurrentHashMap<>();

    private record Compiled(Pattern regex, List<String> fixedPrefixes, List<String> expanded) {}

    PathSet(String name, List<String> patterns) {
        this.name = name;
        this.patterns = List.copyOf(patterns);
    }

    String name() {
        return name;
    }

    boolean isEmpty() {
        return patterns.isEmpty();
    }

    /** Whether {@code path} (absolute, normalised, without a trailing slash) is in the set. */
    boolean contains(String path, String home) {
        return !patterns.isEmpty() && compiled(home).regex.matcher(path).matches();
    }

    /** The first pattern (with {@code ~} expanded) that matches, for messages. */
    String matching(String path, String home) {
        Compiled c = compiled(home);
        for (String p : c.expanded) {
            if (Pattern.compile(regex(p)).matcher(path).matches()) {
                return p;
            }
        }
        return null;
    }

    /**
     * Whether a directory read recursively would reach a member of the set: it is an ancestor of
     * some pattern's fixed leading part. Patterns that match anywhere ({@code **}/.env) are not
     * counted.
     */
    boolean isAncestorOfMember(String dir, String home) {
        return isAncestorOfMember(dir, home, false);
    }

    /**
     * The same, for a reader that skips hidden files and directories ({@code rg} without
     * {@code --hidden}) when {@code skipHidden}: members reached only through a name that starts
     * with a dot are not counted.
     */
    boolean isAncestorOfMember(String dir, String home, boolean skipHidden) {
        String prefix = dir.equals("/") ? "/" : dir + "/";
        for (String fixed : compiled(home).fixedPrefixes) {
            if (fixed.equals(dir) || fixed.startsWith(prefix)) {
                if (skipHidden && fixed.length() > prefix.length() && hidden(fixed.substring(prefix.length()))) {
                    continue;
                }
                return true;
            }
        }
        return false;
    }

    /** Whether a relative path has a segment that starts with a dot. */
    static boolean hidden(String relative) {
        return relative.startsWith(".") || relative.contains("/.");
    }

    private Compiled compiled(String home) {
        String h = home == null ? "" : home;
        return byHome.computeIfAbsent(h, this::compile);
    }

    private Compiled compile(String home) {
        List<String> expanded = new ArrayList<>();
        List<String> fixed = new ArrayList<>();
        StringBuilder all = new StringBuilder();
        for (String p : patterns) {
            String e = p;
            if (p.equals("~") || p.startsWith("~/")) {
                if (home.isEmpty()) {
                    continue;
                }
                e = (home.equals("/") ? "" : home) + p.substring(1);
                if (e.isEmpty()) {
                    e = "/";
                }
            }
            expanded.add(e);
            if (!all.isEmpty()) {
                all.append('|');
            }
            all.append("(?:").append(regex(e)).append(')');
            int glob = firstGlob(e);
            String head = glob < 0 ? e : e.substring(0, e.lastIndexOf('/', glob) + 1);
            if (head.length() > 1 && head.endsWith("/")) {
                head = head.substring(0, head.length() - 1);
            }
            if (!head.isEmpty() && e.startsWith("/") && !(glob >= 0 && head.equals("/") && e.startsWith("/**"))) {
                fixed.add(head);
            }
        }
        // an empty set compiles to a class that matches no character; secrets are matched whatever
        // the case, as case-insensitive file systems (macOS, Windows) open .ENV for .env
        Pattern regex = Pattern.compile(all.isEmpty() ? "[^\\x00-\\x{10FFFF}]" : all.toString(),
                name.equals("sensitive") ? Pattern.CASE_INSENSITIVE : 0);
        return new Compiled(regex, fixed, expanded);
    }

    private static int firstGlob(String p) {
        for (int i = 0; i < p.length(); i++) {
            char c = p.charAt(i);
            if (c == '*' || c == '?' || c == '[') {
                return i;
            }
        }
        return -1;
    }

    /** Converts one glob pattern of the policy to an RE2 expression. */
    static String regex(String glob) {
        return Globs.regex(glob, "[^/]", true);
    }
}
