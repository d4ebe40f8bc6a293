package io.shellgate.interceptor.internal;

import io.shellgate.client.Links;
import io.shellgate.client.RunDirectory;
import java.io.File;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * shellgate's own files as the JVM's environment places them, which no code of the JVM's but the
 * gate's may write: the user policy's directory, the state (audit log, approvals desk), every
 * directory the run directory may be, the cache, the managed policy's directory and any project's
 * {@code .shellgate}. The rules of {@code io.shellgate.rules.Places#gateDirectories}, which this
 * Java 17 core cannot load (a test holds the two together).
 */
final class GateFiles {

    private final List<String> dirs;

    GateFiles(List<String> dirs) {
        this.dirs = dirs;
    }

    static GateFiles of(Map<String, String> env) {
        Path home = RunDirectory.home(env);
        Set<Path> out = new LinkedHashSet<>();
        Path config = RunDirectory.absolute(env.get("XDG_CONFIG_HOME"));
        out.add((config != null ? config : home.resolve(".config")).resolve("shellgate"));
        out.add(home.resolve(".config").resolve("shellgate"));
        Path stateDir = RunDirectory.absolute(env.get("SHELLGATE_STATE_DIR"));
        Path xdgState = RunDirectory.absolute(env.get("XDG_STATE_HOME"));
        if (stateDir != null) {
            out.add(stateDir);
        } else if (xdgState != null) {
            out.add(xdgState.resolve("shellgate"));
        }
        out.add(home.resolve(".local").resolve("state").resolve("shellgate"));
        Path run = RunDirectory.absolute(env.get("SHELLGATE_RUN_DIR"));
        if (run != null) {
            out.add(run);
        }
        Path runtime = RunDirectory.absolute(env.get("XDG_RUNTIME_DIR"));
        if (runtime != null) {
            out.add(runtime.resolve("shellgate"));
        }
        if (xdgState != null) {
            out.add(xdgState.resolve("shellgate").resolve("run"));
        }
        out.add(home.resolve(".local").resolve("state").resolve("shellgate").resolve("run"));
        Path cache = RunDirectory.absolute(env.get("SHELLGATE_CACHE_DIR"));
        Path xdgCache = RunDirectory.absolute(env.get("XDG_CACHE_HOME"));
        out.add(cache != null ? cache : xdgCache != null ? xdgCache.resolve("shellgate") : home.resolve(".cache").resolve("shellgate"));
        out.add(File.separatorChar == '\\' ? Paths.get("C:\\ProgramData\\shellgate") : Paths.get("/etc/shellgate"));
        List<String> dirs = new ArrayList<>();
        for (Path p : out) {
            String d = p.normalize().toString();
            if (!dirs.contains(d) && p.getParent() != null) {
                dirs.add(d);
            }
        }
        return new GateFiles(dirs);
    }

    /** The directories, for tests. */
    List<String> dirs() {
        return dirs;
    }

    /**
     * The gate's directory a write to {@code name} (as the caller wrote it, relative to the JVM's
     * directory) would land in, or null when none: the path as written and with the links of its
     * existing part followed.
     */
    String holding(String name) {
        Path absolute;
        try {
            absolute = Paths.get(name).toAbsolutePath();
        } catch (InvalidPathException e) {
            return null;
        }
        String hit = holding(absolute.normalize());
        if (hit != null) {
            return hit;
        }
        // ".." after a link goes up from where the link points, not from the link: followed as written
        Path landing = Links.landing(absolute);
        return landing == null ? null : holding(landing);
    }

    private String holding(Path p) {
        String a = p.toString();
        for (String d : dirs) {
            // without regard to case: macOS opens POLICY.TOML for policy.toml
            if (a.equalsIgnoreCase(d) || a.length() > d.length() && a.charAt(d.length()) == File.separatorChar
                    && a.regionMatches(true, 0, d, 0, d.length())) {
                return d;
            }
        }
        for (Path seg : p) {
            if (seg.toString().equalsIgnoreCase(".shellgate")) {
                return p.toString().substring(0, p.toString().toLowerCase(java.util.Locale.ROOT).indexOf(".shellgate")) + ".shellgate";
            }
        }
        return null;
    }

}
