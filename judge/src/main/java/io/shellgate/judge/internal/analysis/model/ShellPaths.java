package io.shellgate.judge.internal.analysis.model;

import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.Deque;

/** Lexical path arithmetic on shell arguments, the way the kernel will see them. */
public final class ShellPaths {

    private ShellPaths() {}

    /**
     * The absolute, normalised form of {@code text} seen from {@code cwd}: duplicate slashes, {@code .}
     * and {@code ..} removed, no trailing slash (except for the root itself).
     */
    public static String canonical(String text, Path cwd) {
        String full = text.startsWith("/") ? text : (cwd == null ? "/" : cwd.toString()) + "/" + text;
        Deque<String> parts = new ArrayDeque<>();
        for (String seg : full.split("/")) {
            if (seg.isEmpty() || seg.equals(".")) {
                continue;
            }
            if (seg.equals("..")) {
                parts.pollLast();
            } else {
                parts.addLast(seg);
            }
        }
        return parts.isEmpty() ? "/" : "/" + String.join("/", parts);
    }
}
