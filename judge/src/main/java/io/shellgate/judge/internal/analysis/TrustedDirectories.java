package io.shellgate.judge.internal.analysis;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Decides whether programs in a directory are trusted: the directory and every directory above it
 * belong to root and only root can write them, and it is not a temporary directory, a home
 * directory or the project. Directories listed as trusted in the policy are trusted as they are.
 *
 * <p>Answers about system directories are cached for a few seconds; that is how long a change of
 * ownership or permissions takes to be seen.
 */
final class TrustedDirectories {

    private static final long TTL_NANOS = 5_000_000_000L;
    private static final boolean ROOT = "root".equals(System.getProperty("user.name"));

    private final List<Path> trusted;
    private final List<Path> untrusted;
    private final ConcurrentHashMap<Path, Cached> cache = new ConcurrentHashMap<>();

    private record Cached(String problem, long at) {}

    TrustedDirectories(List<Path> trusted, List<Path> untrusted) {
        this.trusted = List.copyOf(trusted);
        this.untrusted = List.copyOf(untrusted);
    }

    /** Why programs in {@code dir} are not trusted, or null when they are. */
    String problem(Path dir, Path cwd) {
        if (dir == null) {
            return "it has no directory";
        }
        Path d = dir.toAbsolutePath().normalize();
        for (Path t : trusted) {
            if (d.startsWith(t)) {
                return null;
            }
        }
        for (Path u : untrusted) {
            if (d.startsWith(u)) {
                return d + " is a temporary directory";
            }
        }
        if (cwd != null && (d.startsWith(cwd) || cwd.startsWith(d) && d.getNameCount() > 1)) {
            return d + " is the working directory or inside it";
        }
        String home = System.getProperty("user.home");
        if (home != null && !home.equals("/") && d.startsWith(home)) {
            return d + " is in the home directory";
        }
        long now = System.nanoTime();
        Cached c = cache.get(d);
        if (c != null && now - c.at < TTL_NANOS) {
            return c.problem;
        }
        String problem = systemOwned(d);
        cache.put(d, new Cached(problem, now));
        return problem;
    }

    /** Why the program file itself is not trusted (writable by others), or null. */
    String fileProblem(Path file) {
        try {
            Set<PosixFilePermission> perms = Files.getPosixFilePermissions(file);
            if (perms.contains(PosixFilePermission.OTHERS_WRITE) || perms.contains(PosixFilePermission.GROUP_WRITE)
                    && !ownedByRoot(file)) {
                return file + " can be changed by other users";
            }
            return null;
        } catch (UnsupportedOperationException | IOException e) {
            return null;
        }
    }

    private static String systemOwned(Path dir) {
        for (Path d = dir; d != null; d = d.getParent()) {
            try {
                if (!ownedByRoot(d)) {
                    return d + " is not owned by root";
                }
                Set<PosixFilePermission> perms = Files.getPosixFilePermissions(d);
                if (perms.contains(PosixFilePermission.OTHERS_WRITE) || perms.contains(PosixFilePermission.GROUP_WRITE)) {
                    return d + " can be written by other users";
                }
                if (!ROOT && Files.isWritable(d)) {
                    return d + " can be written by this user";
                }
            } catch (UnsupportedOperationException e) {
                // no POSIX attributes (Windows): rely on the listed trusted directories
                return dir + " is not in a listed trusted directory";
            } catch (IOException e) {
                return d + " cannot be checked: " + e.getMessage();
            }
        }
        return null;
    }

    private static boolean ownedByRoot(Path p) throws IOException {
        Object uid = Files.getAttribute(p, "unix:uid", LinkOption.NOFOLLOW_LINKS);
        return uid instanceof Integer i && i == 0;
    }
}
