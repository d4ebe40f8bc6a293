package io.shellgate.launcher.internal.wrap;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * bubblewrap ({@code bwrap}, Debian's {@code bubblewrap} package): runs the agent in a private
 * mount namespace that sees the whole file system, with each shell file covered by an entry and
 * the real shell reachable under the session's directory. Without privileges it needs unprivileged
 * user namespaces ({@code kernel.unprivileged_userns_clone}, and on Ubuntu 24.04 an AppArmor profile
 * that allows them for bwrap).
 */
final class Bubblewrap {

    private static final List<String> PLACES = List.of("/usr/bin/bwrap", "/bin/bwrap", "/usr/local/bin/bwrap");

    /** The capabilities an agent started by root runs without (an unprivileged agent has none in its namespace). */
    static final List<String> ROOT_DROPS = List.of("CAP_SYS_ADMIN", "CAP_SYS_PTRACE", "CAP_DAC_OVERRIDE", "CAP_DAC_READ_SEARCH");

    private final Path program;

    private Bubblewrap(Path program) {
        this.program = program;
    }

    /** bwrap in a system directory (never one from a directory the user or agent can write). */
    static Optional<Bubblewrap> find() {
        for (String p : PLACES) {
            Path path = Path.of(p);
            if (Files.isRegularFile(path) && Files.isExecutable(path)) {
                return Optional.of(new Bubblewrap(path));
            }
        }
        return Optional.empty();
    }

    Path program() {
        return program;
    }

    /** One mount of the namespace: {@code target} shows {@code source}, read-only unless {@code writable}. */
    record Bind(Path source, Path target, boolean writable) {

        static Bind readOnly(Path source, Path target) {
            return new Bind(source, target, false);
        }
    }

    /**
     * The command that runs {@code command} in the namespace.
     *
     * @param binds the mounts, in order (a later one covers an earlier one's part)
     */
    List<String> command(List<Bind> binds, Path cwd, List<String> command) {
        // a PID namespace of its own, with its own /proc: the processes outside (the person's shells, the judge
        // server) cannot be named, so their /proc/PID/exe, root and fd are no way to an unjudged shell or file
        List<String> argv = new ArrayList<>(List.of(program.toString(), "--dev-bind", "/", "/", "--unshare-pid", "--proc", "/proc",
                "--die-with-parent"));
        if (root()) {
            // without a user namespace bwrap keeps root's capabilities: these would unmount the entries, remount the
            // gate's directories writable, read the execute-only shells and open a non-dumpable shell's /proc files
            for (String cap : ROOT_DROPS) {
                argv.addAll(List.of("--cap-drop", cap));
            }
        }
        for (Bind b : binds) {
            argv.addAll(List.of(b.writable() ? "--bind" : "--ro-bind", b.source().toString(), b.target().toString()));
        }
        argv.addAll(List.of("--chdir", cwd.toString(), "--"));
        argv.addAll(command);
        return argv;
    }

    private static boolean root() {
        try {
            return Integer.valueOf(0).equals(Files.getAttribute(Path.of("/proc/self"), "unix:uid"));
        } catch (IOException | RuntimeException e) {
            return false;
        }
    }

    /**
     * Runs {@code /bin/true}-like {@code probe} in a namespace with these binds; empty when it works, else
     * what bwrap said.
     */
    Optional<String> problem(List<Bind> binds, Path cwd, List<String> probe) {
        try {
            Process p = new ProcessBuilder(command(binds, cwd, probe)).redirectErrorStream(true)
                    .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null"))).start();
            String said;
            try (var in = p.getInputStream()) {
                said = new String(in.readNBytes(4096), StandardCharsets.UTF_8).strip();
            }
            if (!p.waitFor(30, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                return Optional.of("bwrap did not finish a test run within 30 s");
            }
            return p.exitValue() == 0 ? Optional.empty()
                    : Optional.of("bwrap exited with " + p.exitValue() + (said.isEmpty() ? "" : ": " + said));
        } catch (IOException e) {
            return Optional.of("bwrap could not be started: " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Optional.of("interrupted");
        }
    }
}
