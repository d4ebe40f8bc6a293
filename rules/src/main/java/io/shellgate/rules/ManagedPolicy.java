package io.shellgate.rules;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.Optional;

/**
 * The administrator's managed policy: where it lives and what its file must be before it is read.
 *
 * <p>Its place is fixed when shellgate is built, never taken from an environment variable, a
 * system property or a command line an agent could set. On Unix the file, and every directory above
 * it, must be owned by root and writable by nobody else (a directory with the sticky bit, such as
 * {@code /tmp}, may be writable by all); anything else is an error that refuses every command,
 * since a managed file that someone else could write would be a policy anyone could loosen.
 */
public final class ManagedPolicy {

    /** The managed policy file of this machine. */
    public static final Path PATH = File.separatorChar == '\\'
            ? Path.of("C:\\ProgramData\\shellgate\\policy.toml")
            : Path.of("/etc/shellgate/policy.toml");

    private static final int STICKY = 01000;

    private ManagedPolicy() {}

    /**
     * The managed layer at {@code file}: empty when nothing is there, an error when something is
     * that is not a root-owned file only root can change.
     */
    static Optional<PolicySource> read(Path file, FileFacts files) throws PolicyException {
        if (!files.existsNoFollow(file)) {
            return Optional.empty();
        }
        Path real = files.realPath(file);
        if (real == null || !files.isRegularFile(real)) {
            throw new PolicyException(file + ": the managed policy is not a readable file; make it one (owned by root,"
                    + " mode 0644) or remove it");
        }
        if (File.separatorChar != '\\') {
            for (Path p = real; p != null; p = p.getParent()) {
                String problem = problem(p, p == real, files);
                if (problem != null) {
                    throw new PolicyException(file + ": the managed policy is not used and every command is refused: "
                            + problem + "; as root, run chown root " + p + " and chmod go-w " + p);
                }
            }
        }
        try {
            return Optional.of(new PolicySource(Layer.MANAGED, file.toString(), files.readString(real)));
        } catch (IOException e) {
            throw new PolicyException(file + ": cannot read the managed policy: " + e.getMessage());
        }
    }

    /** Why {@code p} would let someone other than root change the managed policy, or null. */
    private static String problem(Path p, boolean isFile, FileFacts files) {
        int uid = files.ownerUid(p);
        if (uid != 0) {
            return p + " is owned by " + (uid < 0 ? "an owner that cannot be read" : "user id " + uid) + ", not root";
        }
        String perms = files.permissions(p);
        if (perms == null) {
            return "the permissions of " + p + " cannot be read";
        }
        boolean groupWrites = perms.charAt(4) == 'w';
        boolean othersWrite = perms.charAt(7) == 'w';
        if (!groupWrites && !othersWrite) {
            return null;
        }
        if (!isFile && othersWrite && !groupWrites && sticky(p)) {
            // like /tmp: others may add entries but not replace root's
            return null;
        }
        return p + " is writable by " + (groupWrites ? "its group" : "others") + " (" + perms + ")";
    }

    private static boolean sticky(Path p) {
        try {
            return Files.getAttribute(p, "unix:mode", LinkOption.NOFOLLOW_LINKS) instanceof Integer mode
                    && (mode & STICKY) != 0;
        } catch (IOException | UnsupportedOperationException | IllegalArgumentException | SecurityException e) {
            return false;
        }
    }
}
