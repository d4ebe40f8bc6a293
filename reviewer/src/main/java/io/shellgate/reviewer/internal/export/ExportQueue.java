package io.shellgate.reviewer.internal.export;

import java.io.IOException;
import java.lang.System.Logger.Level;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The on-disk queue of records not yet exported, shared by every process of the user: each batch
 * is one file, written whole and renamed into place, so a reader never sees half of one. A
 * process that sends a file first claims it by renaming it to a name with its own process id;
 * it deletes the file once the collector took it, or puts it back. Claims of processes that died
 * go back to the queue. The queue holds at most {@code maxBytes}: a batch that does not fit is
 * dropped, and the number dropped is kept in the file {@code dropped} and logged.
 */
final class ExportQueue {

    private static final System.Logger LOG = System.getLogger("io.shellgate.reviewer");
    private static final String QUEUED = "q-";
    private static final String CLAIMED = "c-";
    private static final long PID = ProcessHandle.current().pid();
    private static final AtomicLong SEQ = new AtomicLong();

    /** A batch this process took from the queue to send. */
    record Claim(Path file, String name, List<String> lines) {}

    private final Path dir;
    private final long maxBytes;
    /**
     * The queue's size as last counted and kept up since by this process (-1 before the first
     * count), and when it was counted: other processes' batches are seen at the next count.
     */
    private long bytes = -1;
    private long countedAt;
    private static final long RECOUNT_NANOS = 10_000_000_000L;

    ExportQueue(Path dir, long maxBytes) {
        this.dir = dir;
        this.maxBytes = maxBytes;
    }

    Path directory() {
        return dir;
    }

    /** Queues the lines as one batch; returns how many were dropped because the queue is full (0 or all). */
    synchronized int spill(List<String> lines) {
        if (lines.isEmpty()) {
            return 0;
        }
        StringBuilder text = new StringBuilder();
        lines.forEach(l -> text.append(l).append('\n'));
        byte[] data = text.toString().getBytes(StandardCharsets.UTF_8);
        try {
            ensureDirectory();
            if (bytes() + data.length > maxBytes) {
                drop(lines.size(), "the queue is full (" + maxBytes / (1024 * 1024) + " MiB)");
                return lines.size();
            }
            // names sort by time, so the oldest batch goes first
            String name = String.format("%s%013d-%d-%06d.jsonl", QUEUED, System.currentTimeMillis(), PID,
                    SEQ.incrementAndGet() % 1_000_000);
            Path tmp = dir.resolve(".tmp-" + name);
            Files.write(tmp, data);
            Files.move(tmp, dir.resolve(name), StandardCopyOption.ATOMIC_MOVE);
            bytes += data.length;
            return 0;
        } catch (IOException | RuntimeException e) {
            drop(lines.size(), "the queue cannot be written: " + e.getMessage());
            return lines.size();
        }
    }

    /** The oldest queued batch, now this process's to send; null when the queue is empty. */
    Claim claim() {
        for (Path file : list(QUEUED)) {
            String name = file.getFileName().toString();
            Path claimed = dir.resolve(CLAIMED + PID + "-" + name);
            try {
                Files.move(file, claimed, StandardCopyOption.ATOMIC_MOVE);
                return new Claim(claimed, name, Files.readAllLines(claimed, StandardCharsets.UTF_8));
            } catch (NoSuchFileException | FileAlreadyExistsException e) {
                // another process took it first
            } catch (IOException e) {
                LOG.log(Level.WARNING, "shellgate: cannot read the export queue's " + claimed + ": " + e.getMessage());
            }
        }
        return null;
    }

    /** The collector took the batch. */
    synchronized void done(Claim c) {
        try {
            long size = size(c.file());
            if (Files.deleteIfExists(c.file()) && bytes >= 0) {
                bytes = Math.max(0, bytes - size);
            }
        } catch (IOException e) {
            LOG.log(Level.WARNING, "shellgate: cannot remove the exported batch " + c.file() + ": " + e.getMessage());
        }
    }

    /** The batch goes back to the queue, for a later try. */
    void release(Claim c) {
        try {
            Files.move(c.file(), dir.resolve(c.name()), StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            LOG.log(Level.WARNING, "shellgate: cannot put the batch " + c.file() + " back in the export queue: " + e.getMessage());
        }
    }

    /** Puts back the batches that processes which are gone had claimed. */
    void recoverStale() {
        for (Path file : list(CLAIMED)) {
            String name = file.getFileName().toString();
            int dash = name.indexOf('-', CLAIMED.length());
            if (dash < 0) {
                continue;
            }
            long owner;
            try {
                owner = Long.parseLong(name.substring(CLAIMED.length(), dash));
            } catch (NumberFormatException e) {
                continue;
            }
            if (owner != PID && ProcessHandle.of(owner).map(ProcessHandle::isAlive).orElse(false)) {
                continue;
            }
            if (owner != PID) {
                release(new Claim(file, name.substring(dash + 1), List.of()));
            }
        }
    }

    /** The batches waiting, and their size in bytes. */
    long[] waiting() {
        long files = 0;
        long bytes = 0;
        for (Path f : list("")) {
            files++;
            bytes += size(f);
        }
        return new long[] {files, bytes};
    }

    /** How many records were dropped since the queue was made. */
    long dropped() {
        try {
            return Long.parseLong(Files.readString(dir.resolve("dropped")).strip());
        } catch (IOException | NumberFormatException e) {
            return 0;
        }
    }

    private void drop(int count, String why) {
        long total = -1;
        try {
            ensureDirectory();
            try (FileChannel ch = FileChannel.open(dir.resolve("dropped.lock"), StandardOpenOption.CREATE, StandardOpenOption.WRITE);
                    FileLock lock = ch.lock()) {
                total = dropped() + count;
                Path tmp = dir.resolve(".tmp-dropped-" + PID);
                Files.writeString(tmp, total + "\n");
                Files.move(tmp, dir.resolve("dropped"), StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            }
        } catch (IOException | RuntimeException e) {
            // the warning below still says it
        }
        LOG.log(Level.WARNING, "shellgate: " + count + " audit record(s) not exported and dropped: " + why
                + (total < 0 ? "" : " (" + total + " dropped in all; see shellgate doctor)") + "; the local audit log has them");
    }

    /** What the queue holds, counted again only now and then: counting lists the whole directory. */
    private long bytes() {
        long now = System.nanoTime();
        if (bytes < 0 || now - countedAt > RECOUNT_NANOS) {
            long total = 0;
            for (Path f : list("")) {
                total += size(f);
            }
            bytes = total;
            countedAt = now;
        }
        return bytes;
    }

    private static long size(Path f) {
        try {
            return Files.size(f);
        } catch (IOException e) {
            return 0;
        }
    }

    /** The queue's batch files whose names start with {@code prefix} ("" for queued and claimed), sorted. */
    private List<Path> list(String prefix) {
        List<Path> out = new ArrayList<>();
        if (!Files.isDirectory(dir)) {
            return out;
        }
        try (DirectoryStream<Path> files = Files.newDirectoryStream(dir)) {
            for (Path f : files) {
                String n = f.getFileName().toString();
                boolean batch = n.startsWith(QUEUED) || n.startsWith(CLAIMED);
                if (batch && n.startsWith(prefix) && n.endsWith(".jsonl")) {
                    out.add(f);
                }
            }
        } catch (IOException e) {
            LOG.log(Level.WARNING, "shellgate: cannot list the export queue " + dir + ": " + e.getMessage());
        }
        out.sort(null);
        return out;
    }

    private void ensureDirectory() throws IOException {
        if (!Files.isDirectory(dir)) {
            Files.createDirectories(dir);
            try {
                Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwx------"));
            } catch (UnsupportedOperationException e) {
                // not a POSIX file system (Windows): the state directory's own protection applies
            }
        }
    }
}
