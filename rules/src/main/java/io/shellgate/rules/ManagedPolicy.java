package io.shellgate.rules;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * The administrator's managed policy: where it lives and what its file must be before it is read.
 *
 * <p>Its place is fixed when shellgate is built ({@link #PATH}), never taken from an environment
 * variable, a policy file or a command line an agent could set. On Unix the file, and every
 * directory above it, must be owned by root and writable by nobody else (a directory with the
 * sticky bit, such as {@code /tmp}, may be writable by all); anything else is an error that
 * refuses every command, since a managed file that someone else could write would be a policy
 * anyone could loosen.
 *
 * <p>Tests point it elsewhere with the JVM system property {@value #TEST_PROPERTY}, set on the
 * command line of the JVM that runs the gate. The file named there must then be owned by root or
 * by the user this JVM runs as (the test's own files), and the same permission rules hold. The
 * property is ignored where {@link #PATH} exists, so it never stands in for a real managed file. Whoever
 * can put a system property on the gate's JVM (its command line, {@code JAVA_TOOL_OPTIONS}) can
 * already load a {@code -javaagent} into it, so the property gives an agent nothing it did not have.
 */
public final class ManagedPolicy {

    /** The managed policy file of this machine. */
    public static final Path PATH = File.separatorChar == '\\'
            ? Path.of("C:\\ProgramData\\shellgate\\policy.toml")
            : Path.of("/etc/shellgate/policy.toml");

    /** The JVM system property that points the managed policy elsewhere, for tests. */
    public static final String TEST_PROPERTY = "shellgate.test.managed-policy";

    private static final int ROOT = 0;
    private static final int STICKY = 01000;

    /**
     * Where the managed policy is looked for, and whose it must be.
     *
     * @param file the managed policy file
     * @param owner the user id, besides root's, that may own the file and the directories above it;
     *     root's own (0) for the real place
     */
    public record Place(Path file, int owner) {

        /** The place of this machine's managed policy: {@link #PATH}, owned by root. */
        public static final Place SYSTEM = new Place(PATH, ROOT);
    }

    private ManagedPolicy() {}

    /** {@link Place#SYSTEM}, unless the JVM was started with {@value #TEST_PROPERTY}. */
    public static Place place() {
        String test = System.getProperty(TEST_PROPERTY);
        // on a machine with a managed file the property is ignored: it can never stand in for an administrator's file
        if (test == null || test.isBlank() || Files.exists(PATH, LinkOption.NOFOLLOW_LINKS)) {
            return Place.SYSTEM;
        }
        return new Place(Path.of(test).toAbsolutePath(), ownUid());
    }

    /** The user id this JVM runs as; root's when it cannot be told (which accepts only root's files). */
    static int ownUid() {
        try {
            return Files.getAttribute(Path.of("/proc/self"), "unix:uid") instanceof Integer uid ? uid : ROOT;
        } catch (IOException | UnsupportedOperationException | IllegalArgumentException | SecurityException e) {
            return ROOT;
        }
    }

    /**
     * The managed layer at {@code place}: empty when nothing is there, an error when something is
     * that is not a file only its owner (root) can change.
     */
    static Optional<PolicySource> read(Place place, FileFacts files) throws PolicyException {
        Path file = place.file();
        if (!files.existsNoFollow(file)) {
            return Optional.empty();
        }
        Path real = files.realPath(file);
        if (real == null || !files.isRegularFile(real)) {
            throw new PolicyException(file + ": the managed policy is not a readable file and every command is refused;"
                    + " make it one (owned by root, mode 0644) or remove it");
        }
        if (File.separatorChar != '\\') {
            // a link and the directories above it too: whoever may replace the link chooses the file
            for (Path start : real.equals(file) ? List.of(real) : List.of(file.toAbsolutePath(), real)) {
                for (Path p = start; p != null; p = p.getParent()) {
                    check(file, p, p == start, place, files);
                }
            }
        }
        try {
            return Optional.of(new PolicySource(Layer.MANAGED, file.toString(), files.readString(real)));
        } catch (IOException e) {
            throw new PolicyException(file + ": cannot read the managed policy and every command is refused: "
                    + e.getMessage());
        }
    }

    private static void check(Path file, Path p, boolean isFile, Place place, FileFacts files) throws PolicyException {
        String problem = problem(p, isFile, place, files);
        if (problem != null) {
            throw new PolicyException(file + ": the managed policy is not used and every command is refused: "
                    + problem + "; as root, run chown root " + p + " and chmod go-w " + p);
        }
    }

    /** Why {@code p} would let someone other than its owner change the managed policy, or null. */
    private static String problem(Path p, boolean isFile, Place place, FileFacts files) {
        int uid = files.ownerUid(p);
        if (uid != ROOT && uid != place.owner()) {
            return p + " is owned by " + (uid < 0 ? "an owner that cannot be read" : "user id " + uid) + ", not root";
        }
        if (Files.isSymbolicLink(p)) {
            // a link's own permissions mean nothing; its owner and its directory decide who may change it
            return null;
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
        if (!isFile && sticky(p)) {
            // like /tmp: others may add entries but not rename or replace root's
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
