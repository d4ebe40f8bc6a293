package io.shellgate.judge.internal.windows;

import com.google.re2j.Pattern;
import io.shellgate.judge.internal.syntax.Globs;
import java.util.List;
import java.util.Locale;

/**
 * Case-insensitive glob patterns of the policy, compiled to RE2 (linear time on untrusted text):
 * {@code *} stays within a path segment, {@code **} crosses segments, {@code ?} is one character,
 * a backslash makes the next character literal. Path patterns use forward slashes; {@code ~}
 * at the start is the home directory.
 */
public final class WindowsGlob {

    private final Pattern pattern;

    private WindowsGlob(Pattern pattern) {
        this.pattern = pattern;
    }

    private static final int CACHE_SIZE = 256;
    private static final java.util.Map<List<String>, WindowsGlob> CACHE = new java.util.concurrent.ConcurrentHashMap<>();

    /** One expression for all the patterns, with {@code ~} expanded to {@code home} (patterns with ~ are dropped without one). */
    public static WindowsGlob of(List<String> globs, String home) {
        List<String> key = new java.util.ArrayList<>(globs);
        key.add(home == null ? "\0" : home);
        WindowsGlob cached = CACHE.get(key);
        if (cached != null) {
            return cached;
        }
        if (CACHE.size() > CACHE_SIZE) {
            CACHE.clear();
        }
        WindowsGlob compiled = compile(globs, home);
        CACHE.put(List.copyOf(key), compiled);
        return compiled;
    }

    private static WindowsGlob compile(List<String> globs, String home) {
        StringBuilder all = new StringBuilder();
        for (String g : globs) {
            String e = g;
            if (g.equals("~") || g.startsWith("~/")) {
                if (home == null) {
                    continue;
                }
                e = escape(WindowsPaths.normalise(home)) + g.substring(1);
            }
            all.append(all.isEmpty() ? "" : "|").append("(?:").append(regex(e.toLowerCase(Locale.ROOT))).append(')');
        }
        return new WindowsGlob(Pattern.compile(all.isEmpty() ? "[^\\x00-\\x{10FFFF}]" : all.toString()));
    }

    /**
     * One file name wildcard of PowerShell or cmd ({@code * ? [a-z]}), any case.
     *
     * @throws com.google.re2j.PatternSyntaxException for a class RE2 does not accept
     */
    static WindowsGlob wildcard(String pattern) {
        return new WindowsGlob(Pattern.compile(Globs.regex(pattern.toLowerCase(Locale.ROOT), "[^/]", true)));
    }

    public boolean matches(String text) {
        return pattern.matcher(text.toLowerCase(Locale.ROOT)).matches();
    }

    private static String escape(String s) {
        StringBuilder sb = new StringBuilder();
        for (char c : s.toCharArray()) {
            if (c == '*' || c == '?' || c == '\\') {
                sb.append('\\');
            }
            sb.append(c);
        }
        return sb.toString();
    }

    private static String regex(String glob) {
        return Globs.regex(glob, "[^/\\\\]", false);
    }
}
