package io.shellgate.launcher.internal.server;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;
import io.shellgate.launcher.internal.Directories;
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

    /**
     * The longest path of a Unix domain socket here: Linux's {@code sun_path} holds 108 bytes with
     * the final zero, and the JDK refuses 107 already; 100 leaves room. A deeper run directory has
     * its socket in a private directory under /tmp, which {@code server.sockpath} names.
     */
    static final int SOCKET_PATH_MAX = 100;

    /** Where the server's Unix socket is: {@code server.sock}, or where {@code server.sockpath} says when that path is too long. */
    public Path socket() {
        Path own = dir.resolve("server.sock");
        if (fits(own)) {
            return own;
        }
        try {
            Path pointer = socketPointer();
            if (Files.isRegularFile(pointer, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
                Path elsewhere = Path.of(Files.readString(pointer).strip());
                if (elsewhere.isAbsolute() && fits(elsewhere)) {
                    return elsewhere;
                }
            }
        } catch (IOException | java.nio.file.InvalidPathException e) {
            // no usable pointer: the socket cannot be reached
        }
        return own;
    }

    /** The file naming the socket's path when the run directory's own would be too long. */
    public Path socketPointer() {
        return dir.resolve("server.sockpath");
    }

    /**
     * For the server: where to bind its socket. In the run directory when the path fits; else in a
     * new directory under /tmp, made with mode 0700 (so nobody else can have put anything in it),
     * whose socket path goes to {@code server.sockpath}.
     */
    Path newSocket() throws IOException {
        Path own = dir.resolve("server.sock");
        if (fits(own)) {
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

    private static boolean fits(Path socket) {
        return socket.toString().getBytes(java.nio.charset.StandardCharsets.UTF_8).length <= SOCKET_PATH_MAX;
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
        Path socket = socket();
        if (p == null && !socket.startsWith(dir) && Files.exists(socket, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
            // a socket elsewhere: its directory must be as private as the run directory
            p = PrivateFolder.problem(socket.getParent());
        }
        for (Path f : new Path[] {socket, port(), token(), proof()}) {
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
