package io.shellgate.reviewer.internal;

import com.fasterxml.jackson.databind.JsonNode;
import io.shellgate.reviewer.model.AuditReport;
import io.shellgate.rules.JsonTrees;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;

/**
 * The audit records' hash chain: each record's {@code prev} is the SHA-256 of the line before it
 * and its {@code seq} counts on from that line's, so that a line edited, removed or inserted shows
 * where it happened. Anyone who can write the log can also write a whole new chain: the chain
 * tells edits apart from an intact log, it does not stop its owner.
 */
public final class AuditChain {

    /** The {@code prev} of the very first record. */
    static final String ORIGIN = "0".repeat(64);
    private static final String HEAD = "shellgate-audit-head 1 ";

    private AuditChain() {}

    /**
     * The last record written, as kept in {@code audit.lock}: its sequence number and hash, and the
     * floor, the oldest sequence number the log still keeps by design (1 until rotation deletes a
     * file; then the first record of the oldest file left), or 0 when unknown (a head written before
     * floors were kept, or one recovered from the log after the lock file was lost).
     */
    record Head(long seq, String hash, long floor) {

        /** The head kept in the lock file, or null when there is none (a new log, or one from before chaining). */
        static Head read(FileChannel lock) throws IOException {
            ByteBuffer buf = ByteBuffer.allocate(256);
            lock.read(buf, 0);
            return parse(new String(buf.array(), 0, buf.position(), StandardCharsets.US_ASCII));
        }

        static Head readFile(Path lock) throws IOException {
            try {
                return parse(Files.readString(lock, StandardCharsets.US_ASCII));
            } catch (NoSuchFileException e) {
                return null;
            }
        }

        private static Head parse(String text) {
            if (!text.startsWith(HEAD) || !text.endsWith("\n")) {
                return null;
            }
            String[] parts = text.substring(HEAD.length()).strip().split(" ");
            if (parts.length < 2 || parts.length > 3 || !parts[0].matches("[0-9]{1,18}") || !parts[1].matches("[0-9a-f]{64}")
                    || parts.length == 3 && !parts[2].matches("[0-9]{1,18}")) {
                return null;
            }
            return new Head(Long.parseLong(parts[0]), parts[1], parts.length == 3 ? Long.parseLong(parts[2]) : 0);
        }

        /** The head after one more record, {@code line}. */
        Head next(String line) {
            return new Head(seq + 1, sha256(line), floor);
        }

        void write(FileChannel lock) throws IOException {
            byte[] bytes = (HEAD + seq + " " + hash + (floor > 0 ? " " + floor : "") + "\n").getBytes(StandardCharsets.US_ASCII);
            ByteBuffer buf = ByteBuffer.wrap(bytes);
            long at = 0;
            while (buf.hasRemaining()) {
                at += lock.write(buf, at);
            }
            lock.truncate(bytes.length);
        }

        /**
         * Without a kept head: the chain goes on from the last line in the log (seq 0 for a log from
         * before chaining); the floor is 1 for a new log and unknown for one that has lines.
         */
        static Head recover(AuditFiles files) throws IOException {
            List<Path> all = files.oldestFirst();
            for (int i = all.size() - 1; i >= 0; i--) {
                String last = lastLine(all.get(i));
                if (last != null) {
                    return new Head(seqOf(last), sha256(last), 0);
                }
            }
            return new Head(0, ORIGIN, 1);
        }
    }

    /** The sequence number of the first chained record in {@code file}, or 0 when it has none. */
    static long firstSeq(Path file) throws IOException {
        try (var lines = Files.lines(file, StandardCharsets.UTF_8)) {
            for (String line : (Iterable<String>) lines::iterator) {
                JsonNode r = parse(line);
                if (r != null && r.path("seq").canConvertToLong()) {
                    return r.path("seq").asLong();
                }
            }
        } catch (NoSuchFileException | java.io.UncheckedIOException e) {
            return 0;
        }
        return 0;
    }

    /** The hex SHA-256 of a line's UTF-8 bytes (without its newline). */
    static String sha256(String line) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(line.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JDK has SHA-256", e);
        }
    }

    private static long seqOf(String line) {
        int at = line.indexOf("\"seq\":");
        int from = at + 6;
        int to = from;
        while (at >= 0 && to < line.length() && to - from < 18 && Character.isDigit(line.charAt(to))) {
            to++;
        }
        return at < 0 || to == from ? 0 : Long.parseLong(line.substring(from, to));
    }

    private static String lastLine(Path file) throws IOException {
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
            long size = ch.size();
            int n = (int) Math.min(size, 1 << 20);
            ByteBuffer buf = ByteBuffer.allocate(n);
            while (buf.hasRemaining() && ch.read(buf, size - n + buf.position()) > 0) {
                // reads the tail
            }
            String tail = new String(buf.array(), 0, buf.position(), StandardCharsets.UTF_8);
            String[] lines = tail.split("\n");
            // a torn write is not a record to go on from
            for (int i = lines.length - 1; i >= 0; i--) {
                if (parse(lines[i]) != null) {
                    return lines[i];
                }
            }
            return null;
        } catch (NoSuchFileException e) {
            return null;
        }
    }

    static AuditReport verify(AuditFiles files, Path lockFile) throws IOException {
        Head head = Head.readFile(lockFile);
        List<Path> all = files.oldestFirst();
        List<String> problems = new ArrayList<>();
        List<String> torn = new ArrayList<>();
        String prevLine = null;
        long prevSeq = -1;
        long first = 0;
        boolean rotated = false;
        long count = 0;
        boolean chained = false;
        for (Path file : all) {
            List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
            for (int i = 0; i < lines.size(); i++) {
                String line = lines.get(i);
                String where = file.getFileName() + ":" + (i + 1);
                JsonNode r = parse(line);
                if (r == null) {
                    // a writer from before torn lines were ended appended the next record to the torn one
                    int glued = line.lastIndexOf(RECORD_START);
                    if (glued > 0 && parse(line.substring(glued)) != null && torn(line.substring(0, glued), prevSeq, prevLine)) {
                        torn.add(where + ": " + TORN);
                        line = line.substring(glued);
                        r = parse(line);
                    } else if (torn(line, prevSeq, prevLine)) {
                        torn.add(where + ": " + TORN);
                        continue;
                    }
                }
                count++;
                if (r == null) {
                    problems.add(where + ": not a whole record (an edited line, or one cut short where no record was being written)");
                } else if (!r.path("seq").canConvertToLong() || !r.path("prev").isTextual()) {
                    if (chained) {
                        problems.add(where + ": a record without a place in the chain, among chained ones (inserted?)");
                    }
                } else {
                    long seq = r.path("seq").asLong();
                    String prev = r.path("prev").asText();
                    chained = true;
                    if (first == 0) {
                        first = seq;
                        rotated = seq > 1 && prevLine == null && startsWhereRotationLeftIt(seq, head, all, where, problems);
                    }
                    if (prevLine == null) {
                        if (seq == 1 && !prev.equals(ORIGIN)) {
                            problems.add(where + ": the first record's prev is not the chain's origin");
                        }
                    } else if (prevSeq >= 0 && seq != prevSeq + 1) {
                        problems.add(where + ": seq " + seq + " follows seq " + prevSeq + ": " + (seq > prevSeq
                                ? (seq - prevSeq - 1) + " record(s) removed before it" : "records out of order"));
                    } else if (!prev.equals(sha256(prevLine))) {
                        problems.add(where + ": the record before it was changed (its hash is not this record's prev)");
                    }
                    prevSeq = seq;
                }
                prevLine = line;
                if (r == null || !r.path("seq").canConvertToLong()) {
                    prevSeq = -1;
                }
            }
        }
        if (head != null && prevLine != null && (head.seq() != prevSeq || !head.hash().equals(sha256(prevLine)))) {
            problems.add("the newest record kept is seq " + prevSeq + ", but the last one written was seq " + head.seq()
                    + ": the newest records were removed or changed");
        } else if (head != null && prevLine == null && head.seq() > 0) {
            problems.add("the log is empty, but " + head.seq() + " records were written: it was removed");
        }
        return new AuditReport(count, first, Math.max(prevSeq, 0), rotated, problems, torn);
    }

    private static final String RECORD_START = "{\"time\":\"";
    private static final String TORN = "a write cut short (a full disk, or a writer stopped while writing); the next record"
            + " goes on from the one before it";

    /**
     * Whether the oldest record kept, {@code seq}, is where rotation left the log: the floor the head
     * keeps, or, where that is unknown, any seq when rotated files exist. Adds the problem otherwise.
     */
    private static boolean startsWhereRotationLeftIt(long seq, Head head, List<Path> all, String where, List<String> problems) {
        long floor = head == null ? 0 : head.floor();
        if (floor > 0 && seq > floor) {
            problems.add(where + ": the log starts at seq " + seq + ", but rotation kept every record from seq " + floor
                    + ": " + (seq - floor) + " record(s) removed from its start");
            return false;
        }
        if (floor == 0 && all.size() == 1) {
            problems.add(where + ": the log starts at seq " + seq + " and no rotated file exists: " + (seq - 1)
                    + " record(s) removed from its start, not rotated out");
            return false;
        }
        return true;
    }

    /**
     * Whether an unreadable line is the start of the record a writer was cut off writing: the text
     * the writer puts first ({@code {"time":"…","seq":N,"prev":"…",}), cut anywhere, with the seq
     * and prev that record would have had after {@code prevLine}. A record cut short after it was
     * written does not pass for one: the record after it names the whole line in its prev.
     */
    static boolean torn(String line, long prevSeq, String prevLine) {
        if (line.isEmpty()) {
            return false;
        }
        if (line.length() <= RECORD_START.length()) {
            return RECORD_START.startsWith(line);
        }
        if (!line.startsWith(RECORD_START)) {
            return false;
        }
        int end = RECORD_START.length();
        while (end < line.length() && "0123456789-:.TZ".indexOf(line.charAt(end)) >= 0) {
            end++;
        }
        String expected = "\",\"seq\":" + (prevSeq >= 0 ? prevSeq + 1 : 1) + ",\"prev\":\""
                + (prevLine == null ? ORIGIN : sha256(prevLine)) + "\",";
        String rest = line.substring(end);
        return expected.startsWith(rest) || rest.startsWith(expected);
    }

    private static JsonNode parse(String line) {
        try {
            JsonNode n = JsonTrees.parse(line);
            return n != null && n.isObject() ? n : null;
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }
}
