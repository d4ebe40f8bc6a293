package io.shellgate.launcher.internal.wrap;

import io.shellgate.launcher.internal.files.Directories;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * One run of {@code shellgate wrap}: a private directory in the run directory holding the
 * session's pass, the PATH entries and, for the namespace, the covering entries and the real
 * shells they run. Removed when the agent has exited.
 */
public final class WrapSession implements AutoCloseable {

    /** The variable the gate gives the commands it runs, and the entries look for. */
    public static final String PASS = "SHELLGATE_PASS";

    private static final int SHEBANG_MAX = 120;

    /** The file in a session's directory naming its mount-point directory when that is under /tmp. */
    private static final String REAL_ELSEWHERE = "real.path";

    private final Path dir;
    private final Path real;
    private final Path bin;
    private final WrapLayer layer;
    private final List<Bubblewrap.Bind> binds;
    private final String why;

    private WrapSession(Path dir, Path real, Path bin, WrapLayer layer, List<Bubblewrap.Bind> binds, String why) {
        this.dir = dir;
        this.real = real;
        this.bin = bin;
        this.layer = layer;
        this.binds = binds;
        this.why = why;
    }

    /**
     * Makes the session's directory and entries.
     *
     * @param run the run directory (private to this user)
     * @param wanted the layer asked for, or null to take the namespace where it works
     * @param launcher shellgate's launcher script
     * @param agent the agent whose wrapper texts the judge recognises (claude-code...), or null
     * @param env the agent's environment (its PATH and SHELL are looked at)
     * @param cwd where the agent starts
     * @throws IOException when the directory cannot be made
     * @throws IllegalStateException when the layer asked for cannot be had, saying why
     */
    public static WrapSession create(Path run, WrapLayer wanted, String launcher, String agent, Map<String, String> env, Path cwd)
            throws IOException {
        Files.createDirectories(run);
        Files.setPosixFilePermissions(run, PosixFilePermissions.fromString("rwx------"));
        removeStale(run);
        Path dir = Files.createDirectory(run.resolve("wrap-" + ProcessHandle.current().pid() + "-" + random(6)),
                PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        Path real = null;
        try {
            Files.writeString(dir.resolve("pid"), ProcessHandle.current().pid() + "\n");
            Path key = Files.createFile(dir.resolve("pass.key"),
                    PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
            Files.writeString(key, random(32) + "\n");
            List<ShellFiles.Found> shells = ShellFiles.find(env.get("PATH"), env.get("SHELL"));
            Path realBash = shells.stream().filter(f -> f.file().getFileName().toString().equals("bash")).map(ShellFiles.Found::file)
                    .findFirst().orElseThrow(() -> new IllegalStateException("no bash found (shellgate's entries need bash 4.4 or newer)"));
            Optional<Bubblewrap> bwrap = wanted == WrapLayer.PATH ? Optional.empty() : Bubblewrap.find();
            String why;
            WrapLayer layer;
            List<Bubblewrap.Bind> binds = new ArrayList<>();
            if (bwrap.isEmpty()) {
                why = wanted == WrapLayer.PATH ? "asked for with --layer path"
                        : "bubblewrap (bwrap) is not installed in /usr/bin (apt-get install bubblewrap)";
                layer = WrapLayer.PATH;
            } else {
                real = realDirectory(dir);
                Optional<String> problem = namespace(dir, real, shells, realBash, key, launcher, agent, binds, bwrap.get(), cwd);
                if (problem.isEmpty()) {
                    why = "bubblewrap at " + bwrap.get().program();
                    layer = WrapLayer.NAMESPACE;
                } else {
                    why = "bubblewrap cannot make the namespace here: " + problem.get();
                    layer = WrapLayer.PATH;
                    binds.clear();
                }
            }
            if (wanted == WrapLayer.NAMESPACE && layer != WrapLayer.NAMESPACE) {
                throw new IllegalStateException("--layer namespace: " + why);
            }
            String interpreter = layer == WrapLayer.NAMESPACE ? hidden(real, realBash, shells).toString() : realBash.toString();
            String first = EntryScripts.firstStart(ProcessHandle.current().pid(), layer == WrapLayer.NAMESPACE);
            Path bin = Files.createDirectory(dir.resolve("bin"));
            for (String name : allNames()) {
                Path entry = bin.resolve(name);
                Files.writeString(entry, EntryScripts.onPath(interpreter, key.toString(), bin.toString(), name, launcher, agent,
                        KnownShells.judged(name), first));
                Files.setPosixFilePermissions(entry, PosixFilePermissions.fromString("rwx------"));
            }
            return new WrapSession(dir, real, bin, layer, binds, why);
        } catch (IOException | RuntimeException e) {
            Directories.deleteTree(dir);
            if (real != null && !real.startsWith(dir)) {
                Directories.deleteTree(real);
            }
            throw e;
        }
    }

    /**
     * The directory the real shells are reached under (execute-only copies, see {@link ExecuteOnly}). The entries name the
     * hidden bash on their first line, which the kernel reads only so far: where the session's
     * directory has too long a path (a deep run directory), a private directory with a short
     * name is made under /tmp instead (made new with mode 0700, so nobody else can have put
     * anything in it).
     */
    private static Path realDirectory(Path dir) throws IOException {
        Path inside = dir.resolve("real");
        if (inside.resolve("99").toString().length() <= SHEBANG_MAX) {
            return Files.createDirectory(inside);
        }
        Path outside = Directories.newShort();
        Files.writeString(dir.resolve(REAL_ELSEWHERE), outside + "\n");
        return outside;
    }

    /** Writes the covering entries and the real shells; empty when a test run of the namespace worked. */
    private static Optional<String> namespace(Path dir, Path real, List<ShellFiles.Found> shells, Path realBash, Path key,
            String launcher, String agent, List<Bubblewrap.Bind> binds, Bubblewrap bwrap, Path cwd) throws IOException {
        Path cover = Files.createDirectory(dir.resolve("cover"));
        binds.addAll(GateMounts.binds(dir, cwd));
        if (!real.startsWith(dir)) {
            // under /tmp, outside the read-only run directory: the agent must not swap a copy for a program of its own
            binds.add(Bubblewrap.Bind.readOnly(real, real));
        }
        for (int i = 0; i < shells.size(); i++) {
            Path at = real.resolve(Integer.toString(i));
            if (!ExecuteOnly.place(shells.get(i).file(), at)) {
                binds.add(Bubblewrap.Bind.readOnly(shells.get(i).file(), at));
            }
        }
        Path bash = hidden(real, realBash, shells);
        if (bash.toString().length() > SHEBANG_MAX) {
            return Optional.of("the run directory's path is too long for a script's first line (" + bash + ")");
        }
        String first = EntryScripts.firstStart(ProcessHandle.current().pid(), true);
        for (int i = 0; i < shells.size(); i++) {
            ShellFiles.Found f = shells.get(i);
            Path entry = cover.resolve(Integer.toString(i));
            Files.writeString(entry, EntryScripts.cover(bash.toString(), key.toString(), dir.resolve("bin").toString(),
                    real.resolve(Integer.toString(i)).toString(), launcher, agent, f.judged(), f.multiCall(), first));
            Files.setPosixFilePermissions(entry, PosixFilePermissions.fromString("rwx------"));
            binds.add(Bubblewrap.Bind.readOnly(entry, f.file()));
        }
        // the real bash, reached through its cover: exit 0 only if the entry's pass lets it through
        return bwrap.problem(binds, cwd, List.of("/usr/bin/env", PASS + "=" + Files.readString(key).strip(), realBash.toString(),
                "-c", "exit 0"));
    }

    private static Path hidden(Path real, Path file, List<ShellFiles.Found> shells) {
        for (int i = 0; i < shells.size(); i++) {
            if (shells.get(i).file().equals(file)) {
                return real.resolve(Integer.toString(i));
            }
        }
        throw new IllegalStateException(file + " is not among the covered shells");
    }

    private static List<String> allNames() {
        List<String> all = new ArrayList<>(KnownShells.JUDGED);
        all.addAll(KnownShells.UNJUDGED);
        return all;
    }

    /** Directories of earlier sessions whose wrap has gone (killed before it could clean up). */
    private static void removeStale(Path run) {
        try (Stream<Path> all = Files.list(run)) {
            for (Path d : all.filter(p -> p.getFileName().toString().startsWith("wrap-")).toList()) {
                String[] parts = d.getFileName().toString().split("-");
                boolean alive = parts.length == 3 && parts[1].chars().allMatch(Character::isDigit)
                        && ProcessHandle.of(Long.parseLong(parts[1])).map(ProcessHandle::isAlive).orElse(false);
                if (!alive) {
                    Path elsewhere = d.resolve(REAL_ELSEWHERE);
                    if (Files.isRegularFile(elsewhere, LinkOption.NOFOLLOW_LINKS)) {
                        Path real = Path.of(Files.readString(elsewhere).strip());
                        if (Directories.isShort(real)) {
                            Directories.deleteTree(real);
                        }
                    }
                    Directories.deleteTree(d);
                }
            }
        } catch (IOException | RuntimeException e) {
            // an old session's leftovers are not worth failing this one for
        }
    }

    private static String random(int bytes) {
        byte[] b = new byte[bytes];
        new SecureRandom().nextBytes(b);
        return HexFormat.of().formatHex(b);
    }

    public WrapLayer layer() {
        return layer;
    }

    /** Why this layer is in force. */
    public String why() {
        return why;
    }

    /** The directory of PATH entries, to put first on the agent's PATH. */
    public Path bin() {
        return bin;
    }

    /** The agent's command: in the namespace, or as it is. */
    public List<String> command(Path cwd, List<String> agent) {
        if (layer == WrapLayer.NAMESPACE) {
            return Bubblewrap.find().orElseThrow().command(binds, cwd, agent);
        }
        return agent;
    }

    @Override
    public void close() throws IOException {
        Directories.deleteTree(dir);
        if (real != null && !real.startsWith(dir)) {
            Directories.deleteTree(real);
        }
    }
}
