package io.shellgate.launcher.internal.server;

import io.shellgate.client.PrivateFolder;
import io.shellgate.client.RunDirectory;
import io.shellgate.launcher.internal.files.Directories;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;

/**
 * The judge server's run directory as the server keeps it: the client's rules (where it is, where
 * the socket is, which files, whether they can be believed) are {@link RunDirectory}'s; making the
 * directory, binding the socket and writing the files are the server's.
 */
public record RunDir(Path dir) {

    public static RunDir of(Map<String, String> env) {
        return new RunDir(RunDirectory.locate(env));
    }

    /** The client's view of this directory. */
    public RunDirectory directory() {
        return new RunDirectory(dir);
    }

    /** Where the server's Unix socket is: {@code server.sock}, or where {@code server.sockpath} says when that path is too long. */
    public Path socket() {
        return directory().socket();
    }

    /** The file naming the socket's path when the run directory's own would be too long. */
    public Path socketPointer() {
        return directory().socketPointer();
    }

    /**
     * For the server: where to bind its socket. In the run directory when the path fits; else in a
     * new directory under /tmp, made with mode 0700 (so nobody else can have put anything in it),
     * whose socket path goes to {@code server.sockpath}.
     */
    Path newSocket() throws IOException {
        Path own = dir.resolve("server.sock");
        if (RunDirectory.fits(own)) {
            return own;
        }
        // the directory a killed server left (it runs under the server lock, so no server uses it now)
        Path old = socket();
        if (!old.startsWith(dir) && Directories.isShort(old.getParent())
                && PrivateFolder.problem(old.getParent()) == null) {
            try {
                Files.deleteIfExists(old);
                Files.deleteIfExists(old.getParent());
            } catch (IOException e) {
                // left behind: a new directory is made all the same
            }
        }
        Path elsewhere = Directories.newShort().resolve("server.sock");
        writePrivate(socketPointer(), elsewhere + "\n");
        return elsewhere;
    }

    public Path port() {
        return directory().port();
    }

    public Path token() {
        return directory().token();
    }

    /** The server's own secret, with which its TCP replies prove that they come from it. */
    public Path proof() {
        return directory().proof();
    }

    /** Where shell clients remember the values with which they last found the server's files private. */
    public Path trusted() {
        return directory().trusted();
    }

    public Path pid() {
        return directory().pid();
    }

    /** Why a client must not believe this directory's server, or null when it may ({@link RunDirectory#problem}). */
    public String problem() {
        return directory().problem();
    }

    /** Creates the directory private to this user, and refuses one that others can enter. */
    public void create() throws IOException {
        Files.createDirectories(dir);
        Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwx------"));
    }

    /** Writes a file readable only by this user, atomically. */
    public void writePrivate(Path file, String text) throws IOException {
        Path temp = Files.createTempFile(dir, ".write-", ".tmp", PosixFilePermissions.asFileAttribute(
                PosixFilePermissions.fromString("rw-------")));
        try {
            Files.writeString(temp, text);
            Files.move(temp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } finally {
            Files.deleteIfExists(temp);
        }
    }
}
