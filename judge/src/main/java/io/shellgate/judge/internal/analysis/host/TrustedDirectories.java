package io.shellgate.judge.internal.analysis.host;

import io.shellgate.rules.FileFacts;
import java.nio.file.FileSystems;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * Decides whether programs in a directory are trusted: the directory and every directory above it
 * belong to root and only root can write them, and it is not a temporary directory, a home
 * directory or the project. Directories listed as trusted in the policy are trusted as they are.
 *
 * <p>Answers about system directories, and about whether others could put a program into a
 * {@code PATH} directory, are cached for a few seconds; that is how long a change of ownership or
 * permissions takes to be seen. A judgement that records its questions (for a client's recheck)
 * asks every one of them again.
 */
public final class TrustedDirectories {

    private static final long TTL_NANOS = FileFacts.DIRECTORY_TTL_NANOS;
    private static final boolean ROOT = "root".equals(System.getProperty("user.name"));
    private static final boolean POSIX = FileSystems.getDefault().supportedFileAttributeViews().contains("unix");

    /** More directories than this in a cache (a server judging many PATHs): it starts again empty. */
    static final int MAX_CACHED = 4096;

    private final List<Path> trusted;
    private final List<Path> untrusted;
    private final LongSupplier clock;
    private final ConcurrentHashMap<Path, Cached> cache = new ConcurrentHashMap<>();
    private final ConcurrentHashMap<Path, Cached> plantable = new ConcurrentHashMap<>();

    private record Cached(String problem, long at) {}

    public TrustedDirectories(List<Path> trusted, List<Path> untrusted) {
        this(trusted, untrusted, System::nanoTime);
    }

    /** With {@code clock} (nanoseconds) deciding how old a cached answer is. */
    TrustedDirectories(List<Path> trusted, List<Path> untrusted, LongSupplier clock) {
        this.trusted = List.copyOf(trusted);
        this.untrusted = List.copyOf(untrusted);
        this.clock = clock;
    }

    /** Whether {@code dir} is one of the policy's untrusted directories or inside one ({@code /tmp}). */
    public boolean isUntrusted(Path dir) {
        Path d = dir.normalize();
        for (Path u : untrusted) {
            if (d.startsWith(u)) {
                return true;
            }
        }
        return false;
    }

    /**
     * Why programs in {@code dir} are not trusted, or null when they are, asking the file system
     * through {@code files}; one that records is asked every question again (the answers kept for
     * a few seconds are not used).
     */
    String problem(Path dir, Path cwd, FileFacts files) {
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
        if (files != FileFacts.live()) {
            return systemOwned(d, files);
        }
        return cached(cache, d, () -> systemOwned(d, files));
    }

    /**
     * Why someone other than this user could put a program into the {@code PATH} entry {@code entry}
     * (resolved to {@code dir}) before the line runs, or null ({@link PathEntries#plantable}). Every
     * command name a line runs searches the entries before the one that has it: their owners and
     * permissions were most of a line's file-system questions.
     */
    String plantable(String entry, Path dir, FileFacts files) {
        if (files != FileFacts.live() || !entry.startsWith("/")) {
            return PathEntries.plantable(entry, dir, files);
        }
        return cached(plantable, dir, () -> PathEntries.plantable(entry, dir, files));
    }

    private String cached(Map<Path, Cached> answers, Path dir, Supplier<String> ask) {
        long now = clock.getAsLong();
        Cached c = answers.get(dir);
        if (c != null && now - c.at < TTL_NANOS) {
            return c.problem;
        }
        String problem = ask.get();
        if (answers.size() >= MAX_CACHED) {
            answers.clear();
        }
        answers.put(dir, new Cached(problem, now));
        return problem;
    }

    /** Why the program file itself is not trusted (writable by others), or null. */
    String fileProblem(Path file, FileFacts files) {
        String perms = files.permissions(file);
        // group-writable is fine for root's files (root's group); otherwise as for others
        if (perms != null && (perms.charAt(7) == 'w' || perms.charAt(4) == 'w' && files.ownerUid(file) != 0)) {
            return file + " can be changed by other users";
        }
        return null;
    }

    private static String systemOwned(Path dir, FileFacts files) {
        if (!POSIX) {
            // no POSIX attributes (Windows): rely on the listed trusted directories
            return dir + " is not in a listed trusted directory";
        }
        for (Path d = dir; d != null; d = d.getParent()) {
            int uid = files.directoryOwnerUid(d);
            if (uid == -1) {
                return d + " cannot be checked";
            }
            if (uid != 0) {
                return d + " is not owned by root";
            }
            String perms = files.directoryPermissions(d);
            if (perms == null) {
                return d + " cannot be checked";
            }
            if (perms.charAt(7) == 'w' || perms.charAt(4) == 'w') {
                return d + " can be written by other users";
            }
            if (!ROOT && files.isDirectoryWritable(d)) {
                return d + " can be written by this user";
            }
        }
        return null;
    }
}
