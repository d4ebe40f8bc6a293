package io.shellgate.reviewer.internal;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;

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
        StateDir.ensure(dir);
        // a file lock is held per JVM: threads of one process take turns before asking the OS
        synchronized (AuditLog.class) {
            appendLocked(bytes);
        }
    }

    private void appendLocked(byte[] bytes) throws IOException {
        try (FileChannel lockFile = FileChannel.open(dir.resolve("audit.lock"), StandardOpenOption.CREATE,
                        StandardOpenOption.WRITE);
                FileLock lock = lockFile.lock()) {
            Path log = dir.resolve(FILE);
            if (Files.exists(log) && Files.size(log) + bytes.length > maxBytes && Files.size(log) > 0) {
                rotate();
            }
            try (FileChannel out = FileChannel.open(log, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                    StandardOpenOption.APPEND)) {
                ByteBuffer buf = ByteBuffer.wrap(bytes);
                while (buf.hasRemaining()) {
                    out.write(buf);
                }
            }
        }
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
