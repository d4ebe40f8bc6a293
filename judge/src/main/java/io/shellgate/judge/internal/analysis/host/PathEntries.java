package io.shellgate.judge.internal.analysis.host;

import io.shellgate.rules.FileFacts;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;

/**
 * Whether someone other than this user could put a program into a {@code PATH} directory between
 * the verdict and the run: a relative entry (the working directory of the moment), a directory
 * that other users can write or that belongs to another user, or a missing one that such a
 * directory could create ({@code PATH=/tmp/evil:$PATH ls}). A directory searched before the
 * program that resolves is such a place, the name resolves to whatever is put there first.
 */
final class PathEntries {

    /** This process's user id, or -1 when it cannot be told (then only root's directories count as its own). */
    private static final int UID = uid();

    private PathEntries() {}

    /** Why a program could be planted in the {@code PATH} entry {@code entry} (resolved to {@code dir}), or null. */
    static String plantable(String entry, Path dir, FileFacts files) {
        if (entry.isEmpty() || !entry.startsWith("/")) {
            return "\"" + entry + "\" (a relative entry: the working directory where the command runs)";
        }
        Path d = dir;
        while (d != null && !files.isDirectory(d)) {
            d = d.getParent();
        }
        if (d == null) {
            return dir + " (it does not exist)";
        }
        String missing = d.equals(dir) ? "" : dir + ", which does not exist and can be created in ";
        int uid = files.directoryOwnerUid(d);
        if (uid != 0 && uid != UID) {
            return missing + d + " (it belongs to another user)";
        }
        String perms = files.directoryPermissions(d);
        if (perms == null) {
            return missing + d + " (it cannot be checked)";
        }
        if (perms.charAt(7) == 'w' || perms.charAt(4) == 'w') {
            return missing + d + " (other users can write it)";
        }
        return null;
    }

    private static int uid() {
        for (String p : new String[] {"/proc/self", System.getProperty("user.home", "/")}) {
            try {
                if (Files.getAttribute(Path.of(p), "unix:uid", LinkOption.NOFOLLOW_LINKS) instanceof Integer i) {
                    return i;
                }
            } catch (IOException | UnsupportedOperationException | IllegalArgumentException | SecurityException e) {
                // try the next one
            }
        }
        return -1;
    }
}
