package io.shellgate.launcher.internal.pty.os;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.JarURLConnection;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Collections;
import java.util.Map;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;

/**
 * Native files (pty4j's and JNA's) copied once out of the jar into the cache directory (a
 * temporary file then an atomic move, so concurrent starts never see half a file), so that
 * neither library unpacks a copy of its own into a temporary directory on every start.
 */
final class NativeFolder {

    private NativeFolder() {}

    /**
     * Copies the jar resources under {@code resourceDir} (ending in a slash) to {@code target},
     * keeping the paths below it, and returns {@code target}.
     */
    static Path extract(String resourceDir, Path target) {
        URL marker = NativeFolder.class.getClassLoader().getResource(resourceDir);
        if (marker == null) {
            throw new IllegalStateException("no native library in the jar at " + resourceDir);
        }
        try {
            if (!(marker.openConnection() instanceof JarURLConnection jar)) {
                // classes from a directory (an IDE): use the files where they are
                return Path.of(marker.toURI());
            }
            jar.setUseCaches(false);
            try (JarFile file = jar.getJarFile()) {
                for (JarEntry e : Collections.list(file.entries())) {
                    if (!e.isDirectory() && e.getName().startsWith(resourceDir)) {
                        copy(file, e, target.resolve(e.getName().substring(resourceDir.length())));
                    }
                }
            }
        } catch (IOException | java.net.URISyntaxException e) {
            throw new UncheckedIOException(new IOException("cannot extract native libraries to " + target
                    + " (set SHELLGATE_CACHE_DIR to a writable directory)", e));
        }
        return target;
    }

    private static void copy(JarFile jar, JarEntry entry, Path to) throws IOException {
        if (Files.isRegularFile(to) && Files.size(to) == entry.getSize()) {
            return;
        }
        Files.createDirectories(to.getParent());
        Path tmp = Files.createTempFile(to.getParent(), ".extract-", ".tmp");
        try (InputStream in = jar.getInputStream(entry)) {
            Files.copy(in, tmp, StandardCopyOption.REPLACE_EXISTING);
            tmp.toFile().setExecutable(true, true);
            Files.move(tmp, to, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } finally {
            Files.deleteIfExists(tmp);
        }
    }

    static Path cacheDir(Map<String, String> env) {
        return io.shellgate.rules.Places.cache(env);
    }
}
