package io.shellgate.judge.internal.analysis.host;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.List;
import java.util.Objects;

/**
 * What a path was when an answer was made from it: whether it existed, its identity (a replaced
 * file is another file) and, for a file, its modification time and size; a directory counts by its
 * identity alone, since its time changes with every file made in it ({@code /tmp}, a git
 * directory). The paths {@code inside} are stamped only while this one exists (a {@code .git}
 * folder's {@code HEAD}, {@code objects}, {@code refs}). An answer stays good while every path it
 * rests on gives the same stamp.
 */
record FileStamp(Path path, boolean exists, boolean directory, long modifiedNanos, long size, Object key,
        List<FileStamp> inside) {

    static FileStamp of(Path path) {
        return guarded(path, List.of());
    }

    /** A stamp of {@code path} and, while it exists, of {@code more}. */
    static FileStamp guarded(Path path, List<Path> more) {
        try {
            BasicFileAttributes a = Files.readAttributes(path, BasicFileAttributes.class);
            List<FileStamp> inside = more.stream().map(FileStamp::of).toList();
            if (a.isDirectory()) {
                return new FileStamp(path, true, true, 0, 0, a.fileKey(), inside);
            }
            long nanos = a.lastModifiedTime().to(java.util.concurrent.TimeUnit.NANOSECONDS);
            return new FileStamp(path, true, false, nanos, a.size(), a.fileKey(), inside);
        } catch (IOException e) {
            return new FileStamp(path, false, false, 0, 0, null, List.of());
        }
    }

    /** Whether the path still gives this stamp, the paths inside it included. */
    boolean same() {
        FileStamp now = of(path);
        if (now.exists != exists || now.directory != directory || now.modifiedNanos != modifiedNanos || now.size != size
                || !Objects.equals(now.key, key)) {
            return false;
        }
        for (FileStamp s : inside) {
            if (!s.same()) {
                return false;
            }
        }
        return true;
    }

    static boolean unchanged(List<FileStamp> stamps) {
        for (FileStamp s : stamps) {
            if (!s.same()) {
                return false;
            }
        }
        return true;
    }
}
