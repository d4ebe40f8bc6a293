package io.shellgate.reviewer.internal;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * The audit log's files: {@code audit.jsonl}, and the rotated {@code audit.jsonl.1} (newest) to
 * {@code .N}. Rotation goes by size and age together: a rotated file is deleted only when at least
 * {@value #KEEP} newer ones remain and it was last written more than {@link #RETAIN} ago, so a burst
 * of decisions (one session's, or one made to flood the log) can never push out the last week's.
 */
final class AuditFiles {

    static final String FILE = "audit.jsonl";
    static final int KEEP = 5;
    static final Duration RETAIN = Duration.ofDays(7);

    private final Path dir;
    private final long maxBytes;

    AuditFiles(Path dir, long maxBytes) {
        this.dir = dir;
        this.maxBytes = maxBytes;
    }

    long maxBytes() {
        return maxBytes;
    }

    /** How many rotated files there are ({@code .1} to {@code .N} without gaps). */
    private int rotated() {
        int n = 0;
        while (Files.exists(rotated(n + 1), LinkOption.NOFOLLOW_LINKS)) {
            n++;
        }
        return n;
    }

    private Path rotated(int i) {
        return dir.resolve(FILE + "." + i);
    }

    /**
     * Moves the current file to {@code .1} (the others one up), then drops the oldest that are old
     * enough. Under the lock. Returns whether it dropped any.
     */
    boolean rotate() throws IOException {
        boolean dropped = false;
        int n = rotated();
        for (int i = n; i >= 1; i--) {
            Files.move(rotated(i), rotated(i + 1), StandardCopyOption.ATOMIC_MOVE);
        }
        Files.move(dir.resolve(FILE), rotated(1), StandardCopyOption.ATOMIC_MOVE);
        Instant old = Instant.now().minus(RETAIN);
        for (int top = n + 1; top > KEEP; top--) {
            try {
                if (Files.getLastModifiedTime(rotated(top), LinkOption.NOFOLLOW_LINKS).toInstant().isAfter(old)) {
                    break;
                }
                Files.delete(rotated(top));
                dropped = true;
            } catch (NoSuchFileException e) {
                // another reader's view; nothing to drop
            }
        }
        return dropped;
    }

    /** Every file of the log, oldest first. */
    List<Path> oldestFirst() {
        List<Path> out = new ArrayList<>();
        for (int i = rotated(); i >= 1; i--) {
            out.add(rotated(i));
        }
        Path current = dir.resolve(FILE);
        if (Files.exists(current)) {
            out.add(current);
        }
        return out;
    }
}
