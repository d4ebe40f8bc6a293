package io.shellgate.launcher.internal.server;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;
import io.shellgate.reviewer.PrivateFolder;
import io.shellgate.rules.Places;

/**
 * Where the judge server keeps its socket, port, token and pid: a private (0700) directory, as
 * {@link Places#run} decides it.
 */
public record RunDir(Path dir) {

    public static RunDir of(Map<String, String> env) {
        return new RunDir(Places.run(env));
    }

    public Path socket() {
        return dir.resolve("server.sock");
    }

    public Path port() {
        return dir.resolve("server.port");
    }

    public Path token() {
        return dir.resolve("server.token");
    }

    /** The server's own secret, with which its TCP replies prove that they come from it. */
    public Path proof() {
        return dir.resolve("server.proof");
    }

    /**
     * Where shell clients remember the values with which they last found the server's files
     * private (so that later ones need not fork a find): made empty, 0600, by the server when it
     * starts; clients only ever write into it.
     */
    public Path trusted() {
        return dir.resolve("server.trusted");
    }

    public Path pid() {
        return dir.resolve("server.pid");
    }

    /**
     * Why a client must not believe this directory's server, or null when it may: the directory
     * and the server's files must be this user's and writable by nobody else.
     */
    public String problem() {
        String p = PrivateFolder.problem(dir);
        for (Path f : new Path[] {socket(), port(), token(), proof()}) {
            if (p == null && Files.exists(f, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
                p = PrivateFolder.fileProblem(f);
            }
        }
        return p;
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
            Files.move(temp, file, java.nio.file.StandardCopyOption.ATOMIC_MOVE, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        } finally {
            Files.deleteIfExists(temp);
        }
    }
}
