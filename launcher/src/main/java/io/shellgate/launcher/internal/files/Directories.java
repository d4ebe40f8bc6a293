package io.shellgate.launcher.internal.files;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Comparator;
import java.util.stream.Stream;

/** Private working directories the launcher makes for a while and removes again. */
public final class Directories {

    private Directories() {}

    /**
     * A new directory with a short path, {@code /tmp/sg-NNN}, mode 0700: for what must live at a
     * short path (a script's first line, a Unix socket) when the run directory's is too long. It
     * is made new, so nobody else can have put anything in it.
     */
    public static Path newShort() throws IOException {
        return Files.createTempDirectory(Path.of("/tmp"), "sg-",
                PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
    }

    /** Whether {@code dir} has the name of a {@link #newShort} directory (what a file of ours said it was). */
    public static boolean isShort(Path dir) {
        return dir != null && Path.of("/tmp").equals(dir.getParent()) && dir.getFileName().toString().startsWith("sg-");
    }

    /**
     * Removes {@code dir} and everything in it (links are removed, never followed).
     *
     * @throws IOException when something could not be removed, including a failure while the
     *     tree was being walked
     */
    public static void deleteTree(Path dir) throws IOException {
        try (Stream<Path> all = Files.walk(dir)) {
            for (Path p : all.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
    }
}
