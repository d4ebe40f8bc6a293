package io.shellgate.launcher.internal.wrap;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Arrays;

/**
 * The real shells as the namespace keeps them: execute-only copies ({@code --x--x--x}) in the
 * session's directory, which the namespace shows read-only. A process whose program it may not
 * read is not dumpable (the kernel's rule for execute-only programs), so another process of the
 * same user cannot open its {@code /proc/PID/exe}, memory or environment, or trace it: a shell an
 * entry let through is no way to start an unjudged one. The copies cannot be read, so they cannot
 * be copied either.
 */
final class ExecuteOnly {

    private static final byte[] ELF = {0x7f, 'E', 'L', 'F'};

    private ExecuteOnly() {}

    /**
     * Puts the real shell {@code file} at {@code at}: an execute-only copy when the file is a
     * program that runs from anywhere, else an empty file for the caller to mount the real one on.
     *
     * @return whether {@code at} is a copy (else it needs the mount)
     */
    static boolean place(Path file, Path at) throws IOException {
        if (!movable(file)) {
            Files.createFile(at);
            return false;
        }
        Path part = at.resolveSibling(at.getFileName() + ".part");
        Files.copy(file, part);
        Files.setPosixFilePermissions(part, PosixFilePermissions.fromString("--x--x--x"));
        Files.move(part, at);
        return true;
    }

    /**
     * A compiled program in a system directory: a script cannot run without being read, and a
     * program kept in a folder of its own (PowerShell's, under /opt) finds its files next to itself.
     */
    private static boolean movable(Path file) {
        Path dir = file.getParent();
        if (dir == null || !KnownShells.SYSTEM_DIRS.contains(dir.toString())) {
            return false;
        }
        try (InputStream in = Files.newInputStream(file)) {
            return Arrays.equals(in.readNBytes(4), ELF);
        } catch (IOException e) {
            return false;
        }
    }
}
