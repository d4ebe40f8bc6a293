package io.shellgate.client;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.util.Set;

/**
 * Whether a folder of shellgate's own (the run directory, the state directory) and the files in it
 * can be believed: they must belong to this user and be writable by nobody else, and a file must
 * not be a link. In a folder that another user may write, that user can swap a file of ours for one
 * of theirs (a port, a token, a socket) under the same name, whoever owns the files.
 */
public final class PrivateFolder {

    private PrivateFolder() {}

    /** Why {@code dir} cannot be believed, or null when it can (it must exist). */
    public static String problem(Path dir) {
        return check(dir, true, new LinkOption[0]);
    }

    /** Why the file {@code file} (not followed if it is a link) cannot be believed, or null when it can. */
    public static String fileProblem(Path file) {
        return check(file, false, new LinkOption[] {LinkOption.NOFOLLOW_LINKS});
    }

    private static String check(Path p, boolean directory, LinkOption[] links) {
        PosixFileAttributes a;
        try {
            a = Files.readAttributes(p, PosixFileAttributes.class, links);
        } catch (NoSuchFileException e) {
            return p + " does not exist";
        } catch (UnsupportedOperationException e) {
            // no POSIX owner or modes (Windows): the user's profile is private already
            return null;
        } catch (IOException e) {
            return p + " cannot be read (" + e.getMessage() + ")";
        }
        if (directory && !a.isDirectory()) {
            return p + " is not a directory";
        }
        if (!directory && a.isSymbolicLink()) {
            return p + " is a symbolic link";
        }
        String me = System.getProperty("user.name");
        if (me == null || !a.owner().getName().equals(me)) {
            return p + " belongs to " + a.owner().getName() + ", not to " + me;
        }
        Set<PosixFilePermission> modes = a.permissions();
        if (modes.contains(PosixFilePermission.GROUP_WRITE) || modes.contains(PosixFilePermission.OTHERS_WRITE)) {
            return p + " is writable by " + (modes.contains(PosixFilePermission.OTHERS_WRITE) ? "other users" : "its group")
                    + " (chmod go-w " + p + ")";
        }
        return null;
    }
}
