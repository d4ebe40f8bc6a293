package io.shellgate.judge.internal.analysis.host;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Set;
import java.util.function.Predicate;

/**
 * A bounded breadth-first look through a directory tree, for "would a recursive read reach a
 * secret?". Shallow files (a project's {@code .env}) are found first; very large trees are looked
 * at only as far as the bound, which the README documents as a limit.
 */
public final class TreeScan {

    static final int MAX_ENTRIES = 20_000;
    private static final int MAX_DEPTH = 8;
    private static final Set<String> SKIP = Set.of(".git", "node_modules", "target", "build", "dist", ".venv", "venv",
            "__pycache__", ".gradle", ".m2", ".cache", ".tox", ".mypy_cache", ".next");

    private TreeScan() {}

    private static final int MAX_MATCHES = 32;
    private static final long TTL_NANOS = 2_000_000_000L;
    private static final java.util.concurrent.ConcurrentHashMap<String, Cached> CACHE = new java.util.concurrent.ConcurrentHashMap<>();

    private record Cached(java.util.List<String> matches, long at) {}

    /**
     * The first path under {@code root} that {@code candidate} and then {@code test} accept. The
     * candidates found in a tree are kept for two seconds, keyed by {@code key}, so that a batch of
     * recursive reads does not walk the same tree again.
     */
    static String find(Path root, String key, Predicate<String> candidate, Predicate<String> test) {
        String k = root + "\u0000" + key;
        long now = System.nanoTime();
        Cached c = CACHE.get(k);
        if (c == null || now - c.at > TTL_NANOS) {
            java.util.List<String> matches = new java.util.ArrayList<>();
            collect(root, candidate, key.endsWith(FOLLOW), matches);
            c = new Cached(java.util.List.copyOf(matches), now);
            if (CACHE.size() > 256) {
                CACHE.clear();
            }
            CACHE.put(k, c);
        }
        for (String m : c.matches) {
            if (test.test(m)) {
                return m;
            }
        }
        return null;
    }

    /** Where the chain of links at {@code path} ends, existing or not; null when a link cannot be read. */
    static Path linkTarget(Path path) {
        Path p = path.toAbsolutePath().normalize();
        for (int hops = 0; hops < 40 && Files.isSymbolicLink(p); hops++) {
            try {
                Path parent = p.getParent();
                try {
                    parent = parent.toRealPath();
                } catch (IOException e) {
                    // a missing directory: resolve lexically
                }
                p = parent.resolve(Files.readSymbolicLink(p)).normalize();
            } catch (IOException | SecurityException | UnsupportedOperationException e) {
                return null;
            }
        }
        return Files.isSymbolicLink(p) ? null : p;
    }

    /** Ends the key of a scan for a reader that opens the links it meets ({@code find -exec cat {} +}). */
    public static final String FOLLOW = ":follow-links";

    private static void collect(Path root, Predicate<String> test, boolean follow, java.util.List<String> out) {
        if (!Files.isDirectory(root)) {
            return;
        }
        Deque<Path> queue = new ArrayDeque<>();
        Deque<Integer> depths = new ArrayDeque<>();
        queue.add(root);
        depths.add(0);
        int seen = 0;
        while (!queue.isEmpty()) {
            Path dir = queue.poll();
            int depth = depths.poll();
            try (DirectoryStream<Path> entries = Files.newDirectoryStream(dir)) {
                for (Path e : entries) {
                    if (++seen > MAX_ENTRIES) {
                        return;
                    }
                    String abs = e.toAbsolutePath().normalize().toString();
                    // a link is judged by where it leads: a reader that opens it (cat, find -L, grep -R) reads that
                    Path target = follow && Files.isSymbolicLink(e) ? linkTarget(e) : null;
                    if (test.test(abs) || target != null && test.test(target.toString())) {
                        out.add(abs);
                        if (out.size() >= MAX_MATCHES) {
                            return;
                        }
                    }
                    if (depth < MAX_DEPTH && Files.isDirectory(e, LinkOption.NOFOLLOW_LINKS)
                            && !SKIP.contains(e.getFileName().toString())) {
                        queue.add(e);
                        depths.add(depth + 1);
                    } else if (depth < MAX_DEPTH && target != null && Files.isDirectory(target)) {
                        // a linked directory: the files inside are reported under their own paths
                        queue.add(target);
                        depths.add(depth + 1);
                    }
                }
            } catch (IOException | SecurityException e) {
                // unreadable directories are not read by the command either
            }
        }
    }
}
