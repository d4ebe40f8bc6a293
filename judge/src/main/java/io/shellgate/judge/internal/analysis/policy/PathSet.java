package io.shellgate.judge.internal.analysis.policy;

import com.google.re2j.Pattern;
import io.shellgate.judge.internal.syntax.Globs;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A set of path patterns from the policy. {@code ~} stands for the home directory of the request
 * being judged; {@code *} stays within a segment, {@code **} crosses segments. Patterns are
 * compiled once per home directory into one RE2 expression, which runs in linear time on the
 * untrusted paths it is matched against.
 */
public final class PathSet {

    private final String name;
    private final List<String> patterns;
    private final ConcurrentHashMap<String, Compiled> byHome = new ConcurrentHashMap<>();

    private record Compiled(Pattern regex, List<String> fixedPrefixes, List<String> expanded, Literals literals) {}

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
    public boolean contains(String path, String home) {
        if (patterns.isEmpty()) {
            return false;
        }
        Compiled c = compiled(home);
        Boolean quick = c.literals.contains(path);
        return quick != null ? quick : c.regex.matcher(path).matches();
    }

    /** The first pattern (with {@code ~} expanded) that matches, for messages: null when none does. */
    public String matching(String path, String home) {
        Compiled c = compiled(home);
        // each pattern's own expression, compiled once with the set, and with its case rule
        List<Pattern> each = c.literals.regexes();
        for (int i = 0; i < each.size(); i++) {
            if (each.get(i).matcher(path).matches()) {
                return c.expanded.get(i);
            }
        }
        return null;
    }

    /**
     * Whether a directory read recursively would reach a member of the set: it is an ancestor of
     * some pattern's fixed leading part. Patterns that match anywhere ({@code **}/.env) are not
     * counted.
     */
    public boolean isAncestorOfMember(String dir, String home) {
        return isAncestorOfMember(dir, home, false);
    }

    /**
     * The same, for a reader that skips hidden files and directories ({@code rg} without
     * {@code --hidden}) when {@code skipHidden}: members reached only through a name that starts
     * with a dot are not counted.
     */
    public boolean isAncestorOfMember(String dir, String home, boolean skipHidden) {
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
    public static boolean hidden(String relative) {
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
        int flags = name.equals("sensitive") ? Pattern.CASE_INSENSITIVE : 0;
        Pattern regex = Pattern.compile(all.isEmpty() ? "[^\\x00-\\x{10FFFF}]" : all.toString(), flags);
        return new Compiled(regex, fixed, expanded, Literals.of(expanded, flags != 0));
    }

    /**
     * The set's patterns one by one, each with a piece of text every path it matches contains (the
     * longest run of its characters that are no wildcard). RE2/J has no DFA, so the set's whole
     * expression costs a few hundred microseconds per path, and a tree scan looks at thousands of
     * paths; a substring test rules out almost every pattern first, and only the rest run their own
     * expression. Paths beyond ASCII in a set that ignores case get the whole expression (RE2 folds
     * more than Java's lower case does).
     */
    private record Literals(List<String> required, List<Pattern> regexes, boolean ignoreCase) {

        static Literals of(List<String> expanded, boolean ignoreCase) {
            List<String> required = new ArrayList<>();
            List<Pattern> regexes = new ArrayList<>();
            for (String e : expanded) {
                String lit = longestLiteral(e);
                boolean ascii = lit.chars().allMatch(ch -> ch < 0x80);
                required.add(!ascii ? "" : ignoreCase ? lit.toLowerCase(Locale.ROOT) : lit);
                regexes.add(Pattern.compile(regex(e), ignoreCase ? Pattern.CASE_INSENSITIVE : 0));
            }
            return new Literals(List.copyOf(required), List.copyOf(regexes), ignoreCase);
        }

        /** Null when the whole expression must decide. */
        Boolean contains(String path) {
            if (ignoreCase && !path.chars().allMatch(ch -> ch < 0x80)) {
                return null;
            }
            String text = ignoreCase ? path.toLowerCase(Locale.ROOT) : path;
            for (int i = 0; i < required.size(); i++) {
                if (text.contains(required.get(i)) && regexes.get(i).matcher(path).matches()) {
                    return true;
                }
            }
            return false;
        }

        /** The longest run of literal characters of a glob (a backslash makes the next one literal). */
        private static String longestLiteral(String glob) {
            String best = "";
            StringBuilder run = new StringBuilder();
            for (int i = 0; i < glob.length(); i++) {
                char c = glob.charAt(i);
                if (c == '\\' && i + 1 < glob.length()) {
                    run.append(glob.charAt(++i));
                    continue;
                }
                if (c == '*' || c == '?' || c == '[') {
                    if (run.length() > best.length()) {
                        best = run.toString();
                    }
                    run.setLength(0);
                    if (c == '*' && i + 2 < glob.length() && glob.charAt(i + 1) == '*' && glob.charAt(i + 2) == '/') {
                        // the slash of **/ is optional: it belongs to the wildcard
                        i += 2;
                    }
                    if (c == '[') {
                        int close = glob.indexOf(']', i + 1);
                        if (close > 0) {
                            i = close;
                        }
                    }
                    continue;
                }
                run.append(c);
            }
            return run.length() > best.length() ? run.toString() : best;
        }
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
