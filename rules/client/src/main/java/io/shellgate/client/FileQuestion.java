package io.shellgate.client;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The questions about files that an allow may rest on (a reply's {@code recheck} facts,
 * docs/protocol.md), by the name the server gives them, each answered as {@code java.nio.file.Files}
 * answers it: the server's {@code FileFacts} asks them under these names, and a client asks them
 * again before it reuses an allow. {@code java.io.File} answers where its answer is the same,
 * because it is the cheaper call.
 */
public enum FileQuestion {
    REGULAR("regular"),
    DIRECTORY("directory"),
    EXISTS("exists"),
    LEXISTS("lexists"),
    EXECUTABLE("executable"),
    REAL("real"),
    PERMS("perms"),
    UID("uid"),
    IDENTITY("identity"),
    DIR_PERMS("dir-perms"),
    DIR_UID("dir-uid"),
    DIR_WRITABLE("dir-writable");

    /**
     * How long an answer about a directory whose programs' trust is decided ({@code dir-}
     * questions) counts as still holding after it last held: the judge keeps those answers as long.
     */
    public static final long DIRECTORY_TTL_NANOS = 5_000_000_000L;

    private final String wire;

    FileQuestion(String wire) {
        this.wire = wire;
    }

    /** The question's name in the protocol. */
    public String wire() {
        return wire;
    }

    /** The question of that name; null for one this client does not know. */
    public static FileQuestion named(String name) {
        for (FileQuestion q : values()) {
            if (q.wire.equals(name)) {
                return q;
            }
        }
        return null;
    }

    /** Whether it is about a directory whose programs' trust is decided (its answer counts for {@link #DIRECTORY_TTL_NANOS}). */
    public boolean aboutTrustedDirectory() {
        return this == DIR_PERMS || this == DIR_UID || this == DIR_WRITABLE;
    }

    /** The answer now about {@code path}, in the server's words. */
    public String answer(Path path) {
        return answer(path.toFile(), path);
    }

    String answer(File file, Path p) {
        switch (this) {
            case REGULAR:
                return Boolean.toString(file.isFile());
            case DIRECTORY:
                return Boolean.toString(file.isDirectory());
            case EXISTS:
                return Boolean.toString(file.exists());
            case LEXISTS: {
                // a path that leads to a file exists itself; only one that does not (a dangling link, or
                // nothing) needs the question without following links, and only where its folder is there:
                // that lstat throws for a name that is not there, a stack trace that costs more than the call
                File parent = file.getAbsoluteFile().getParentFile();
                return Boolean.toString(file.exists()
                        || (parent == null || parent.exists()) && Files.exists(p, LinkOption.NOFOLLOW_LINKS));
            }
            case EXECUTABLE:
                return Boolean.toString(file.canExecute());
            case DIR_WRITABLE:
                return Boolean.toString(file.canWrite());
            case REAL:
                try {
                    // a path that is not there (or a dangling link) has none, told without the exception
                    return file.exists() ? p.toRealPath().toString() : "";
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
                throw new AssertionError(this);
        }
    }

    /**
     * {@code dev:ino:size:mtime} (the time in nanoseconds), following links; "" when it cannot be
     * read. The basic attributes carry it all (their file key is {@code (dev=HEX,ino=DEC)}) and
     * cost a fraction of the named-attribute map: that map took half the time of asking a start's
     * questions again while the JIT had not compiled it. A key in any other form is read by name.
     */
    public static String identity(Path p) {
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
    public static String identityByName(Path p) {
        try {
            Map<String, Object> a = Files.readAttributes(p, "unix:dev,ino,size,lastModifiedTime");
            return a.get("dev") + ":" + a.get("ino") + ":" + a.get("size") + ":"
                    + ((FileTime) a.get("lastModifiedTime")).to(TimeUnit.NANOSECONDS);
        } catch (IOException | UnsupportedOperationException | IllegalArgumentException | ClassCastException e) {
            return "";
        }
    }
}
