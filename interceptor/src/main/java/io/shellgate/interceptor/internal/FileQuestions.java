package io.shellgate.interceptor.internal;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The judge server's file questions (a reply's {@code recheck} facts, docs/protocol.md), to ask
 * again before an allow is reused: the same questions the server asks
 * ({@code io.shellgate.rules.FileFacts}), answered in the same words ({@code FileQuestionsTest}
 * compares the two on every kind of file). {@code java.io.File} answers where its answer is the
 * same, because it is the cheaper call. A question about a directory's owner or permissions
 * ({@code dir-}) counts as still answered for {@link #DIRECTORY_TTL_NANOS} after it last was: the
 * judge keeps its own answers to those as long.
 */
final class FileQuestions {

    static final long DIRECTORY_TTL_NANOS = 5_000_000_000L;

    private static final int REGULAR = 0;
    private static final int DIRECTORY = 1;
    private static final int EXISTS = 2;
    private static final int LEXISTS = 3;
    private static final int EXECUTABLE = 4;
    private static final int REAL = 5;
    private static final int PERMS = 6;
    private static final int UID = 7;
    private static final int IDENTITY = 8;
    private static final int DIR_PERMS = 9;
    private static final int DIR_UID = 10;
    private static final int DIR_WRITABLE = 11;
    private static final List<String> OPS = List.of("regular", "directory", "exists", "lexists", "executable", "real",
            "perms", "uid", "identity", "dir-perms", "dir-uid", "dir-writable");

    /** One question with the answer it must get; {@code heldAt} is when a {@code dir-} question last got it. */
    private static final class Question {
        final int op;
        final File file;
        final Path path;
        final String answer;
        volatile long heldAt;
        volatile boolean held;

        Question(int op, String path, String answer) {
            this.op = op;
            this.file = new File(path);
            this.path = Path.of(path);
            this.answer = answer;
        }
    }

    private final List<Question> questions;

    private FileQuestions(List<Question> questions) {
        this.questions = questions;
    }

    /**
     * The questions of a reply's {@code facts}, each {@code [op, path, answer]}; null when one is
     * malformed or a question this copy does not know (such an allow is never reused).
     */
    static FileQuestions of(List<?> facts) {
        List<Question> questions = new ArrayList<>(facts.size());
        for (Object f : facts) {
            if (!(f instanceof List<?> fact) || fact.size() != 3 || !(fact.get(0) instanceof String op)
                    || !(fact.get(1) instanceof String path) || !(fact.get(2) instanceof String answer)
                    || !OPS.contains(op) || !path.startsWith("/") || path.indexOf('\0') >= 0) {
                return null;
            }
            try {
                questions.add(new Question(OPS.indexOf(op), path, answer));
            } catch (InvalidPathException e) {
                return null;
            }
        }
        return new FileQuestions(List.copyOf(questions));
    }

    /** Whether every question still gets its answer. */
    boolean stillHold() {
        long now = 0;
        for (Question q : questions) {
            if (q.op >= DIR_PERMS) {
                if (now == 0) {
                    now = System.nanoTime();
                }
                if (q.held && now - q.heldAt < DIRECTORY_TTL_NANOS) {
                    continue;
                }
                if (!q.answer.equals(answer(q.op, q.file, q.path))) {
                    return false;
                }
                q.heldAt = now;
                q.held = true;
            } else if (!q.answer.equals(answer(q.op, q.file, q.path))) {
                return false;
            }
        }
        return true;
    }

    /** The answer to question {@code op} (a name the server uses) about {@code path} now. */
    static String answer(String op, String path) {
        return answer(OPS.indexOf(op), new File(path), Path.of(path));
    }

    private static String answer(int op, File file, Path p) {
        switch (op) {
            case REGULAR:
                return Boolean.toString(file.isFile());
            case DIRECTORY:
                return Boolean.toString(file.isDirectory());
            case EXISTS:
                return Boolean.toString(file.exists());
            case LEXISTS:
                // a path that leads to a file exists itself; only one that does not (a dangling
                // link, or nothing) needs the question without following links
                return Boolean.toString(file.exists() || Files.exists(p, LinkOption.NOFOLLOW_LINKS));
            case EXECUTABLE:
                return Boolean.toString(file.canExecute());
            case DIR_WRITABLE:
                return Boolean.toString(file.canWrite());
            case REAL:
                try {
                    return p.toRealPath().toString();
                } catch (IOException | SecurityException e) {
                    return "";
                }
            case PERMS:
            case DIR_PERMS:
                try {
                    return PosixFilePermissions.toString(Files.getPosixFilePermissions(p));
                } catch (IOException | UnsupportedOperationException | SecurityException e) {
                    return "";
                }
            case UID:
            case DIR_UID:
                try {
                    Object uid = Files.getAttribute(p, "unix:uid", LinkOption.NOFOLLOW_LINKS);
                    return uid instanceof Integer ? uid.toString() : "-1";
                } catch (IOException | UnsupportedOperationException | IllegalArgumentException | SecurityException e) {
                    return "-1";
                }
            case IDENTITY:
                return identity(p);
            default:
                return null;
        }
    }

    /**
     * {@code dev:ino:size:mtime}, as the server words it. The basic attributes carry it all (their
     * file key is {@code (dev=HEX,ino=DEC)}) and cost a fraction of the named-attribute map the
     * server reads: that map took half the time of asking a start's questions again while the JIT
     * had not compiled it. A key in any other form is read the server's way.
     */
    static String identity(Path p) {
        try {
            BasicFileAttributes a = Files.readAttributes(p, BasicFileAttributes.class);
            String key = String.valueOf(a.fileKey());
            int ino = key.indexOf(",ino=");
            if (!key.startsWith("(dev=") || ino < 0 || !key.endsWith(")")) {
                return identityByName(p);
            }
            long dev = Long.parseUnsignedLong(key, 5, ino, 16);
            long inode = Long.parseLong(key, ino + 5, key.length() - 1, 10);
            return dev + ":" + inode + ":" + a.size() + ":" + a.lastModifiedTime().to(TimeUnit.NANOSECONDS);
        } catch (IOException | UnsupportedOperationException | IllegalArgumentException e) {
            return "";
        }
    }

    /** The identity from the named attributes, as the server reads it. */
    static String identityByName(Path p) {
        try {
            Map<String, Object> a = Files.readAttributes(p, "unix:dev,ino,size,lastModifiedTime");
            return a.get("dev") + ":" + a.get("ino") + ":" + a.get("size") + ":"
                    + ((FileTime) a.get("lastModifiedTime")).to(TimeUnit.NANOSECONDS);
        } catch (IOException | UnsupportedOperationException | IllegalArgumentException | ClassCastException e) {
            return "";
        }
    }
}
