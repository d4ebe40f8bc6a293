package io.shellgate.judge.internal.windows;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * File name wildcards as PowerShell ({@code * ? [a-z]}) and cmd ({@code * ?}) expand them: any
 * case, dot files included, and the file system's habit of matching {@code *.htm} against
 * {@code x.html} through its short name. Expansion lists the directories it passes, up to a bound.
 */
public final class Wildcards {

    /** Past this many matches (or directory entries looked at) a pattern is not expanded. */
    static final int LIMIT = 2000;

    private Wildcards() {}

    /** Whether {@code path} holds a wildcard; {@code [} counts for PowerShell only. */
    public static boolean has(String path, boolean powershell) {
        return path.indexOf('*') >= 0 || path.indexOf('?') >= 0 || powershell && path.indexOf('[') >= 0;
    }

    /**
     * Whether one name matches one pattern segment.
     *
     * @throws com.google.re2j.PatternSyntaxException for a class that cannot be read
     */
    static boolean matches(String pattern, String name, boolean powershell) {
        String p = pattern.replace("\\", "\\\\");
        if (!powershell) {
            // cmd has no [classes]: a bracket is part of the name
            p = p.replace("[", "\\[");
        }
        if (WindowsGlob.wildcard(p).matches(name)) {
            return true;
        }
        int dot = pattern.lastIndexOf('.');
        // Win32 matches the short name too: *.htm finds index.html (extension HTM)
        return dot >= 0 && pattern.length() - dot - 1 == 3 && !has(pattern.substring(dot), true)
                && WindowsGlob.wildcard(p + "*").matches(name);
    }

    /** Whether a name matches a PowerShell filter ({@code -Include}, {@code -Filter}); true when the pattern cannot be read. */
    public static boolean matchesName(String pattern, String name) {
        try {
            return matches(pattern, name, true);
        } catch (com.google.re2j.PatternSyntaxException e) {
            return true;
        }
    }

    /**
     * The existing paths an absolute pattern matches, or null when it cannot be told (a directory
     * that cannot be listed, or too many).
     *
     * @param children the names in a directory (empty when it is none), or null when it cannot be listed
     */
    static List<String> expand(String pattern, boolean powershell, Function<String, List<String>> children) {
        return expand(pattern, powershell, children, dir -> true);
    }

    /**
     * The same; a directory the pattern names literally that is not one here ({@code isDirectory})
     * makes the matches unknown, where one a wildcard matched that is a file is skipped.
     */
    static List<String> expand(String pattern, boolean powershell, Function<String, List<String>> children,
            java.util.function.Predicate<String> isDirectory) {
        String root;
        String rest;
        if (pattern.startsWith("/")) {
            root = "/";
            rest = pattern.substring(1);
        } else if (pattern.length() >= 3 && pattern.charAt(1) == ':' && pattern.charAt(2) == '/') {
            root = pattern.substring(0, 3);
            rest = pattern.substring(3);
        } else {
            return null;
        }
        List<String> current = List.of(root);
        boolean matched = false;
        int looked = 0;
        for (String seg : WindowsPaths.split(rest, '/')) {
            if (seg.isEmpty()) {
                continue;
            }
            List<String> next = new ArrayList<>();
            boolean wild = has(seg, powershell);
            for (String dir : current) {
                String base = dir.endsWith("/") ? dir : dir + "/";
                if (!wild) {
                    next.add(base + seg);
                    continue;
                }
                if (!isDirectory.test(dir)) {
                    if (matched) {
                        // a file an earlier wildcard matched holds nothing
                        continue;
                    }
                    // a directory that is not here: what the pattern matches where the line runs is not known
                    return null;
                }
                List<String> names = children.apply(dir);
                if (names == null) {
                    return null;
                }
                looked += names.size();
                try {
                    for (String n : names) {
                        if (matches(seg, n, powershell)) {
                            next.add(base + n);
                        }
                    }
                } catch (com.google.re2j.PatternSyntaxException e) {
                    return null;
                }
                if (looked > LIMIT || next.size() > LIMIT) {
                    return null;
                }
            }
            matched |= wild;
            current = next;
        }
        return current;
    }
}
