package io.shellgate.judge.internal.analysis;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.List;

/**
 * What a path was when an answer was made from it: whether it existed, its modification time,
 * size and identity (a replaced file is another file). An answer stays good while every path it
 * rests on gives the same stamp.
 */
record FileStamp(Path path, boolean exists, long modifiedNanos, long size, Object key) {

    static FileStamp of(Path path) {
        try {
            BasicFileAttributes a = Files.readAttributes(path, BasicFileAttributes.class);
            long nanos = a.lastModifiedTime().to(java.util.concurrent.TimeUnit.NANOSECONDS);
            return new FileStamp(path, true, nanos, a.size(), a.fileKey());
        } catch (IOException e) {
            return new FileStamp(path, false, 0, 0, null);
        }
    }

    static boolean unchanged(List<FileStamp> stamps) {
        for (FileStamp s : stamps) {
            if (!s.equals(of(s.path))) {
                return false;
            }
        }
        return true;
    }
}
