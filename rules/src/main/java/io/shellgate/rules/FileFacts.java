package io.shellgate.rules;

import io.shellgate.client.FileQuestion;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The questions about files that finding the policies and resolving programs ask, each answered
 * by the file system. A recording instance keeps every question with its answer as a
 * {@link Fact}, so that a client can ask them again and reuse a verdict only while every answer is
 * the same (docs/protocol.md, {@code recheck}). The questions are the protocol's
 * {@link FileQuestion}s, by their names, and a client's answers to them must be in exactly these
 * words (FileQuestionsTest).
 */
public final class FileFacts {

    /** Changes closer than this to when a file was looked at may share its time stamps with it. */
    static final long RACY_NANOS = 2_000_000_000L;
    /**
     * How long an answer about a directory's owner and permissions, asked to decide whether its
     * programs are trusted, may be taken as still holding after it last held: the judge keeps those
     * answers as long ({@code dir-} questions).
     */
    public static final long DIRECTORY_TTL_NANOS = FileQuestion.DIRECTORY_TTL_NANOS;

    /** One question and its answer. {@code op} names the question; answers are words, "" for none. */
    public record Fact(String op, String path, String answer) {}

    private static final FileFacts LIVE = new FileFacts(null);

    private final List<Fact> facts;
    private boolean complete = true;

    private FileFacts(List<Fact> facts) {
        this.facts = facts;
    }

    /** Asks the file system and keeps nothing. */
    public static FileFacts live() {
        return LIVE;
    }

    /** Asks the file system and keeps every question with its answer. Used by one thread. */
    public static FileFacts recording() {
        return new FileFacts(new ArrayList<>());
    }

    /** The questions asked so far, or null when one of them cannot be asked again reliably. */
    public List<Fact> facts() {
        return facts == null || !complete ? null : List.copyOf(facts);
    }

    /** Marks what was recorded as not enough to decide again (a question only the judge can ask); nothing for {@link #live()}. */
    public void incomplete() {
        if (facts != null) {
            complete = false;
        }
    }

    /** Keeps a question once: asked again with another answer (the file changed meanwhile), the record is incomplete. */
    private String keep(FileQuestion question, Path path, String answer) {
        if (facts != null) {
            String op = question.wire();
            Fact fact = new Fact(op, path.toString(), answer);
            for (Fact f : facts) {
                if (f.op.equals(op) && f.path.equals(fact.path)) {
                    if (!f.answer.equals(answer)) {
                        incomplete();
                    }
                    return answer;
                }
            }
            facts.add(fact);
        }
        return answer;
    }

    private boolean keep(FileQuestion question, Path path, boolean answer) {
        keep(question, path, answer ? "true" : "false");
        return answer;
    }

    /** {@link Files#isRegularFile}, following links. */
    public boolean isRegularFile(Path p) {
        return keep(FileQuestion.REGULAR, p, Files.isRegularFile(p));
    }

    /** {@link Files#isDirectory}, following links. */
    public boolean isDirectory(Path p) {
        return keep(FileQuestion.DIRECTORY, p, Files.isDirectory(p));
    }

    /** {@link Files#exists}, following links. */
    public boolean exists(Path p) {
        return keep(FileQuestion.EXISTS, p, Files.exists(p));
    }

    /** {@link Files#exists} of the path itself, a link included. */
    public boolean existsNoFollow(Path p) {
        return Boolean.parseBoolean(keep(FileQuestion.LEXISTS, p, LinkExistence.answer(p)));
    }

    /** {@link Files#isExecutable}: whether this process may run it. */
    public boolean isExecutable(Path p) {
        return keep(FileQuestion.EXECUTABLE, p, Files.isExecutable(p));
    }

    /** {@link Files#isWritable} of a directory whose programs' trust is decided: whether this process may write it. */
    public boolean isDirectoryWritable(Path p) {
        return keep(FileQuestion.DIR_WRITABLE, p, Files.isWritable(p));
    }

    /** The path with every link resolved, or null when that fails. */
    public Path realPath(Path p) {
        String real = keep(FileQuestion.REAL, p, FileQuestion.REAL.answer(p));
        return real.isEmpty() ? null : Path.of(real);
    }

    /** The permissions, following links, as {@code rwxr-xr-x}; null when they cannot be read. */
    public String permissions(Path p) {
        return permissions(FileQuestion.PERMS, p);
    }

    /** {@link #permissions} of a directory whose programs' trust is decided. */
    public String directoryPermissions(Path p) {
        return permissions(FileQuestion.DIR_PERMS, p);
    }

    private String permissions(FileQuestion op, Path p) {
        String perms;
        try {
            perms = PosixFilePermissions.toString(Files.getPosixFilePermissions(p));
        } catch (IOException | UnsupportedOperationException | SecurityException e) {
            perms = null;
        }
        keep(op, p, perms == null ? "" : perms);
        return perms;
    }

    /** The owner's user id of the path itself (a link's own), or -1 when it cannot be read. */
    public int ownerUid(Path p) {
        return ownerUid(FileQuestion.UID, p);
    }

    /** {@link #ownerUid} of a directory whose programs' trust is decided. */
    public int directoryOwnerUid(Path p) {
        return ownerUid(FileQuestion.DIR_UID, p);
    }

    private int ownerUid(FileQuestion op, Path p) {
        int uid;
        try {
            uid = Files.getAttribute(p, "unix:uid", LinkOption.NOFOLLOW_LINKS) instanceof Integer i ? i : -1;
        } catch (IOException | UnsupportedOperationException | IllegalArgumentException | SecurityException e) {
            uid = -1;
        }
        keep(op, p, Integer.toString(uid));
        return uid;
    }

    /**
     * A file's text. The fact kept is the file's identity, taken before it is read (device, inode,
     * size, modification time): a later change gives another. A file changed within
     * {@link #RACY_NANOS} of being read could change again with the same time stamps, so it makes
     * the record {@link #incomplete()}; so does one whose status changed that recently (its change
     * time), such as a file written and then given back an older modification time.
     */
    public String readString(Path p) throws IOException {
        if (facts != null) {
            Stat stat = stat(p);
            keep(FileQuestion.IDENTITY, p, stat == null ? "" : stat.identity());
            if (stat == null || racy(stat.modified()) || racy(stat.changed())) {
                incomplete();
            }
        }
        return Files.readString(p);
    }

    /** Whether a time (in nanoseconds) is less than {@link #RACY_NANOS} ago, or ahead. */
    private static boolean racy(long nanos) {
        return TimeUnit.MILLISECONDS.toNanos(System.currentTimeMillis()) - nanos < RACY_NANOS;
    }

    /**
     * {@code dev:ino:size:mtime} (the time in nanoseconds), following links; "" when it cannot be
     * read. The change time is left out: it also moves with the owner and permissions, which no
     * verdict takes from a file it reads, and the javaagent (which asks this again before every
     * start on a reused allow) has no cheap way to read it on Java 17.
     */
    public static String identity(Path p) {
        Stat stat = stat(p);
        return stat == null ? "" : stat.identity();
    }

    /** A file's identity and its modification and change times (nanoseconds), from one read of its attributes. */
    private record Stat(String identity, long modified, long changed) {}

    /** The file's {@link Stat}, following links; null when it cannot be read. */
    private static Stat stat(Path p) {
        try {
            Map<String, Object> a = Files.readAttributes(p, "unix:dev,ino,size,lastModifiedTime,ctime");
            long modified = ((FileTime) a.get("lastModifiedTime")).to(TimeUnit.NANOSECONDS);
            return new Stat(a.get("dev") + ":" + a.get("ino") + ":" + a.get("size") + ":" + modified, modified,
                    ((FileTime) a.get("ctime")).to(TimeUnit.NANOSECONDS));
        } catch (IOException | UnsupportedOperationException | IllegalArgumentException | ClassCastException e) {
            return null;
        }
    }
}
