package io.shellgate.reviewer.internal;

import io.shellgate.reviewer.config.StateDir;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The audit log: one JSON line per decision in {@code audit.jsonl}, rotated by size into
 * {@code audit.jsonl.1} (newest), {@code .2} and on (see {@link AuditFiles}). Every record carries
 * {@code seq} and {@code prev}, the SHA-256 of the record before it, so that an edited, removed or
 * inserted line breaks the chain ({@link AuditChain}); the chain's head (the last sequence number
 * and hash written) is kept in {@code audit.lock}, so that removing the newest lines shows too.
 * Every append happens under an exclusive lock on {@code audit.lock}, and each batch goes out in
 * one write, so many processes appending at once neither interleave nor lose lines.
 */
public final class AuditLog {

    static final String FILE = AuditFiles.FILE;
    private static final long DEFAULT_MAX_BYTES = 10L * 1024 * 1024;

    private final Path dir;
    private final AuditFiles files;

    public AuditLog(Path dir, long maxBytes) {
        this.dir = dir;
        this.files = new AuditFiles(dir, maxBytes);
    }

    public AuditLog(Path dir) {
        this(dir, DEFAULT_MAX_BYTES);
    }

    /**
     * Appends one record for each of {@code times}: {@code said} is the record's JSON after its
     * time and chain fields (from the first field's name to the closing brace).
     */
    public void append(long[] times, String said) throws IOException {
        // a file lock is held per JVM: threads of one process take turns before asking the OS
        synchronized (AuditLog.class) {
            try {
                appendLocked(times, said);
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

    private void appendLocked(long[] times, String said) throws IOException {
        Path lockPath = dir.resolve("audit.lock");
        for (int attempt = 0; ; attempt++) {
            Open open = OPEN.get(dir);
            if (open == null) {
                StateDir.ensure(dir);
                open = new Open();
                open.lock = FileChannel.open(lockPath, StandardOpenOption.CREATE, StandardOpenOption.READ,
                        StandardOpenOption.WRITE);
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
                    write(open, times, said);
                    return;
                }
            }
            OPEN.remove(dir);
            open.close();
        }
    }

    private void write(Open open, long[] times, String said) throws IOException {
        AuditChain.Head head = AuditChain.Head.read(open.lock);
        if (head == null) {
            head = AuditChain.Head.recover(files);
        }
        StringBuilder text = new StringBuilder(times.length * (said.length() + 140));
        for (long t : times) {
            int start = text.length();
            text.append("{\"time\":\"").append(AuditWriter.Timestamps.of(t)).append("\",\"seq\":").append(head.seq() + 1)
                    .append(",\"prev\":\"").append(head.hash()).append("\",").append(said);
            head = head.next(text.substring(start));
            text.append('\n');
        }
        byte[] bytes = text.toString().getBytes(StandardCharsets.UTF_8);
        Path log = dir.resolve(FILE);
        BasicFileAttributes now = attributes(log);
        if (now != null && now.size() > 0 && now.size() + bytes.length > files.maxBytes()) {
            if (files.rotate()) {
                List<Path> left = files.oldestFirst();
                head = new AuditChain.Head(head.seq(), head.hash(), left.isEmpty() ? 0 : AuditChain.firstSeq(left.getFirst()));
            }
            now = null;
        }
        if (open.out == null || now == null || now.fileKey() == null || !now.fileKey().equals(open.outKey)) {
            if (open.out != null) {
                open.out.close();
            }
            open.out = FileChannel.open(log, StandardOpenOption.CREATE, StandardOpenOption.WRITE, StandardOpenOption.APPEND);
            open.outKey = fileKey(log);
        }
        if (now != null && now.size() > 0 && !endsWithNewline(log, now.size())) {
            // the last write was cut short (a full disk): end the torn line, so that these records stand on lines of their own
            byte[] ended = new byte[bytes.length + 1];
            ended[0] = '\n';
            System.arraycopy(bytes, 0, ended, 1, bytes.length);
            bytes = ended;
        }
        ByteBuffer buf = ByteBuffer.wrap(bytes);
        while (buf.hasRemaining()) {
            open.out.write(buf);
        }
        head.write(open.lock);
    }

    private static boolean endsWithNewline(Path log, long size) throws IOException {
        try (FileChannel in = FileChannel.open(log, StandardOpenOption.READ)) {
            ByteBuffer last = ByteBuffer.allocate(1);
            return in.read(last, size - 1) != 1 || last.get(0) == '\n';
        } catch (NoSuchFileException e) {
            return true;
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

    /** The state directory the log is in. */
    public Path directory() {
        return dir;
    }

    /** Every line of the log, oldest first, rotated files included. */
    public List<String> lines() throws IOException {
        List<String> out = new ArrayList<>();
        for (Path p : files.oldestFirst()) {
            out.addAll(Files.readAllLines(p, StandardCharsets.UTF_8));
        }
        return out;
    }

    /** Checks the chain of every record kept (see {@link AuditChain#verify}). */
    public io.shellgate.reviewer.model.AuditReport verify() throws IOException {
        return AuditChain.verify(files, dir.resolve("audit.lock"));
    }
}
