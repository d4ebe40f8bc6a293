package io.shellgate.interceptor.internal;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.util.Set;

/**
 * Whether the judge server's run directory and its files can be believed: they must be this
 * user's and writable by nobody else (the same rule as the launcher's, docs/protocol.md). Java 17
 * code of the agent's own: the launcher's copy is compiled for the judge's Java.
 */
final class RunDirTrust {

    private RunDirTrust() {}

    /** Why {@code p} cannot be believed, or null when it can. */
    static String problem(Path p, boolean directory) {
        PosixFileAttributes a;
        try {
            a = directory ? Files.readAttributes(p, PosixFileAttributes.class)
                    : Files.readAttributes(p, PosixFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
        } catch (UnsupportedOperationException e) {
            return null;
        } catch (IOException e) {
            return p + " cannot be read (" + e.getMessage() + ")";
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
            return p + " is writable by other users or its group (chmod go-w " + p + ")";
        }
        return null;
    }
}
