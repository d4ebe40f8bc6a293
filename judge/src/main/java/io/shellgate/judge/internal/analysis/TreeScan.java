package io.shellgate.judge.internal.analysis;

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
final class TreeScan {

    static final int MAX_ENTRIES = 20_000;
    private static final int MAX_DEPTH = 8;
    private static final Set<String> SKIP = Set.of(".git", "node_modules", "target", "build", "dist", ".venv", "venv",
            "__pycache__", ".gradle", ".m2", ".cache", ".tox", ".mypy_cache", ".next");

    private TreeScan() {}

    static String find(Path root, Predicate<String> test) {
        if (!Files.isDirectory(root)) {
            return null;
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
                        return null;
                    }
                    String abs = e.toAbsolutePath().normalize().toString();
                    if (test.test(abs)) {
                        return abs;
                    }
                    if (depth < MAX_DEPTH && Files.isDirectory(e, LinkOption.NOFOLLOW_LINKS)
                            && !SKIP.contains(e.getFileName().toString())) {
                        queue.add(e);
                        depths.add(depth + 1);
                    }
                }
            } catch (IOException | SecurityException e) {
                // unreadable directories are not read by the command either
            }
        }
        return null;
    }
}
