package io.shellgate.reviewer.internal;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The audit log: one JSON line per decision in {@code audit.jsonl}, rotated by size into
 * {@code audit.jsonl.1} (newest) to {@code audit.jsonl.N}. Every append and every rotation
 * happens under an exclusive lock on {@code audit.lock}, and each line goes out in one write, so
 * many processes appending at once neither interleave nor lose lines.
 */
public final class AuditLog {

    static final String FILE = "audit.jsonl";
    private static final long DEFAULT_MAX_BYTES = 10L * 1024 * 1024;
    private static final int KEEP = 5;

    private final Path dir;
    private final long maxBytes;

    public AuditLog(Path dir, long maxBytes) {
        this.dir = dir;
        this.maxBytes = maxBytes;
    }

    public AuditLog(Path dir) {
        this(dir, DEFAULT_MAX_BYTES);
    }

    /** Appends one line (a JSON object without a newline). */
    public void append(String jsonLine) throws IOException {
        byte[] bytes = (jsonLine + "\n").getBytes(StandardCharsets.UTF_8);
        // a file lock is held per JVM: threads of one process take turns before asking the OS
        synchronized (AuditLog.class) {
            try {
                appendLocked(bytes);
            } catch (IOException | RuntimeException e) {
                Open broken = OPEN.remove(dir);
                if (broken != null) {
                    broken.close();
                }
                throw e;
            }
        }
    }

    /**
     * The lock file and the log, kept open between appends (opening them costs more than the
     * write). Both are checked against the names after the lock is taken: a log another process
     * rotated away, or a state directory deleted and made again, is opened afresh.
     */
    private static final class Open {
        FileChannel lock;
        Object lockKey;
        FileChannel out;
        Object outKey;

        void close() {
            for (FileChannel c : new FileChannel[] {lock, out}) {
                try {
                    if (c != null) {
                        c.close();
                    }
                } catch (IOException e) {
                    // it was only kept open to save time
                }
            }
        }
    }

    /** Per state directory, guarded by the class lock. */
    private static final Map<Path, Open> OPEN = new HashMap<>();

    private void appendLocked(byte[] bytes) throws IOException {
        Path lockPath = dir.resolve("audit.lock");
        for (int attempt = 0; ; attempt++) {
            Open open = OPEN.get(dir);
            if (open == null) {
                StateDir.ensure(dir);
                open = new Open();
                open.lock = FileChannel.open(lockPath, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
                open.lockKey = fileKey(lockPath);
                OPEN.put(dir, open);
            }
            boolean stale;
            try (FileLock held = open.lock.lock()) {
                // the lock counts only if it is on the file other processes open now; where the
                // platform has no file keys, the channel is trusted as it is
                Object key = fileKey(lockPath);
                stale = open.lockKey != null && !open.lockKey.equals(key);
                if (!stale || attempt > 0) {
                    write(open, bytes);
                    return;
                }
            }
            OPEN.remove(dir);
            open.close();
        }
    }

    private void write(Open open, byte[] bytes) throws IOException {
        Path log = dir.resolve(FILE);
        BasicFileAttributes now = attributes(log);
        if (now != null && now.size() > 0 && now.size() + bytes.length > maxBytes) {
            rotate();
            now = null;
        }
        if (open.out == null || now == null || now.fileKey() == null || !now.fileKey().equals(open.outKey)) {
            if (open.out != null) {
                open.out.close();
            }
            open.out = FileChannel.open(log, StandardOpenOption.CREATE, StandardOpenOption.WRITE, StandardOpenOption.APPEND);
            open.outKey = fileKey(log);
        }
        ByteBuffer buf = ByteBuffer.wrap(bytes);
        while (buf.hasRemaining()) {
            open.out.write(buf);
        }
    }

    private static BasicFileAttributes attributes(Path p) throws IOException {
        try {
            return Files.readAttributes(p, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
        } catch (NoSuchFileException e) {
            return null;
        }
    }

    /** The file's identity (device and inode), or null when missing or when the platform has none. */
    private static Object fileKey(Path p) throws IOException {
        BasicFileAttributes a = attributes(p);
        return a == null ? null : a.fileKey();
    }

    private void rotate() throws IOException {
        Files.deleteIfExists(dir.resolve(FILE + "." + KEEP));
        for (int i = KEEP - 1; i >= 1; i--) {
            Path from = dir.resolve(FILE + "." + i);
            if (Files.exists(from)) {
                Files.move(from, dir.resolve(FILE + "." + (i + 1)), StandardCopyOption.ATOMIC_MOVE);
            }
        }
        Files.move(dir.resolve(FILE), dir.resolve(FILE + ".1"), StandardCopyOption.ATOMIC_MOVE);
    }

    /** Every line of the log, oldest first, rotated files included. */
    public List<String> lines() throws IOException {
        List<String> out = new ArrayList<>();
        for (int i = KEEP; i >= 1; i--) {
            Path p = dir.resolve(FILE + "." + i);
            if (Files.exists(p)) {
                out.addAll(Files.readAllLines(p, StandardCharsets.UTF_8));
            }
        }
        Path p = dir.resolve(FILE);
        if (Files.exists(p)) {
            out.addAll(Files.readAllLines(p, StandardCharsets.UTF_8));
        }
        return out;
    }
}
