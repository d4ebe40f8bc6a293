package io.shellgate.launcher.internal;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/** Private working directories the launcher makes for a while and removes again. */
public final class Directories {

    private Directories() {}

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
