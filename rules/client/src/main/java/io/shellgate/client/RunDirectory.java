package io.shellgate.client;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.attribute.FileTime;
import java.util.Map;

/**
 * The judge server's run directory (docs/protocol.md, "The run directory"): where it is, where its
 * socket is, and whether its files can be believed. Every Java part decides these here; the
 * launcher script ({@code sg_rundir}, {@code sg_trust_run}) and the C relay decide the same, held
 * to this by tests.
 *
 * @param dir the directory (it need not exist)
 */
public record RunDirectory(Path dir) {

    /**
     * The longest path of a Unix domain socket here: Linux's {@code sun_path} holds 108 bytes with
     * the final zero, and the JDK refuses 107 already; 100 leaves room. A deeper run directory has
     * its socket in a private directory under /tmp, which {@code server.sockpath} names.
     */
    public static final int SOCKET_PATH_MAX = 100;

    /** The run directory {@link #locate} finds in {@code env}. */
    public static RunDirectory of(Map<String, String> env) {
        return new RunDirectory(locate(env));
    }

    /**
     * The first that applies, only absolute paths counting: {@code $SHELLGATE_RUN_DIR}, else
     * {@code $XDG_RUNTIME_DIR/shellgate} when that directory exists, else
     * {@code $XDG_STATE_HOME/shellgate/run}, else {@code ~/.local/state/shellgate/run} ({@code ~}
     * from the password database when {@code HOME} is not an absolute path).
     */
    public static Path locate(Map<String, String> env) {
        Path own = absolute(env.get("SHELLGATE_RUN_DIR"));
        if (own != null) {
            return own;
        }
        Path runtime = absolute(env.get("XDG_RUNTIME_DIR"));
        if (runtime != null && Files.isDirectory(runtime)) {
            return runtime.resolve("shellgate");
        }
        Path state = absolute(env.get("XDG_STATE_HOME"));
        if (state != null) {
            return state.resolve("shellgate").resolve("run");
        }
        return home(env).resolve(".local").resolve("state").resolve("shellgate").resolve("run");
    }

    /** {@code $HOME} when it is an absolute path, else the home of the password database (as the shell's {@code ~} is then). */
    public static Path home(Map<String, String> env) {
        Path home = absolute(env.get("HOME"));
        return home != null ? home : Paths.get(System.getProperty("user.home"));
    }

    /** The path when {@code value} is an absolute one; null otherwise (a relative one would move with a cd). */
    public static Path absolute(String value) {
        if (value == null || value.isEmpty()) {
            return null;
        }
        try {
            Path p = Paths.get(value);
            return p.isAbsolute() ? p : null;
        } catch (InvalidPathException e) {
            return null;
        }
    }

    /**
     * Where the server's Unix socket is: {@code server.sock}, or, where that path is longer than
     * {@value #SOCKET_PATH_MAX} bytes, the path {@code server.sockpath} names when that file can be
     * believed (the server binds it in a private directory under /tmp).
     */
    public Path socket() {
        Path own = dir.resolve("server.sock");
        if (fits(own)) {
            return own;
        }
        try {
            Path pointer = socketPointer();
            if (Files.isRegularFile(pointer, LinkOption.NOFOLLOW_LINKS) && PrivateFolder.fileProblem(pointer) == null) {
                Path elsewhere = Paths.get(new String(Files.readAllBytes(pointer), StandardCharsets.UTF_8).strip());
                if (elsewhere.isAbsolute() && fits(elsewhere)) {
                    return elsewhere;
                }
            }
        } catch (IOException | InvalidPathException e) {
            // no usable pointer: the socket cannot be reached
        }
        return own;
    }

    /** Whether a Unix socket can be bound at {@code socket}. */
    public static boolean fits(Path socket) {
        return socket.toString().getBytes(StandardCharsets.UTF_8).length <= SOCKET_PATH_MAX;
    }

    /** The file naming the socket's path when the run directory's own would be too long. */
    public Path socketPointer() {
        return dir.resolve("server.sockpath");
    }

    public Path port() {
        return dir.resolve("server.port");
    }

    /** What a TCP client sends as {@code "token"}. */
    public Path token() {
        return dir.resolve("server.token");
    }

    /** The server's own secret, with which its TCP replies prove that they come from it. */
    public Path proof() {
        return dir.resolve("server.proof");
    }

    /**
     * Where shell clients remember the values with which they last found the server's files
     * private: made empty, 0600, by the server when it starts; clients only ever write into it.
     */
    public Path trusted() {
        return dir.resolve("server.trusted");
    }

    public Path pid() {
        return dir.resolve("server.pid");
    }

    /** When a client last started a server ({@link ServerStarts}). */
    public Path starting() {
        return dir.resolve("starting");
    }

    /**
     * Why a client must not believe this directory's server, or null when it may: the directory
     * (and the socket's own directory, when the socket is elsewhere) must be this user's and
     * writable by nobody else, and so must those of the socket, {@code server.port},
     * {@code server.token} and {@code server.proof} that exist, none of them a link.
     */
    public String problem() {
        String p = PrivateFolder.problem(dir);
        Path socket = socket();
        if (p == null && !socket.startsWith(dir) && Files.exists(socket, LinkOption.NOFOLLOW_LINKS)) {
            p = PrivateFolder.problem(socket.getParent());
        }
        for (Path f : new Path[] {socket, port(), token(), proof()}) {
            if (p == null && Files.exists(f, LinkOption.NOFOLLOW_LINKS)) {
                p = PrivateFolder.fileProblem(f);
            }
        }
        return p;
    }

    /**
     * Whether the server here was started before {@code jar} (the installed {@code shellgate.jar})
     * was built, so runs older code: its {@code server.port} is older than the jar. Clients send
     * such a server {@code stop} (docs/protocol.md, {@code stop}). False when either file is
     * missing: without the jar there is nothing to compare, and a server writes its port once it
     * listens.
     */
    public boolean olderThan(Path jar) {
        try {
            FileTime built = Files.getLastModifiedTime(jar);
            return Files.getLastModifiedTime(port(), LinkOption.NOFOLLOW_LINKS).compareTo(built) < 0;
        } catch (IOException e) {
            return false;
        }
    }
}
