package io.shellgate.reviewer.config;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;

/**
 * Where shellgate keeps its state: {@code $SHELLGATE_STATE_DIR}, else
 * {@code $XDG_STATE_HOME/shellgate}, else {@code ~/.local/state/shellgate}.
 */
public final class StateDir {

    private StateDir() {}

    /** The state directory for this environment; null when neither it nor a home is known. */
    public static Path of(Map<String, String> env) {
        return io.shellgate.rules.Places.state(env).orElse(null);
    }

    /** Creates {@code dir} (and parents) readable by its owner only. */
    public static Path ensure(Path dir) throws IOException {
        if (!Files.isDirectory(dir)) {
            Files.createDirectories(dir);
            try {
                Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwx------"));
            } catch (UnsupportedOperationException e) {
                // not a POSIX file system (Windows): the user's profile is private already
            }
        }
        return dir;
    }
}
