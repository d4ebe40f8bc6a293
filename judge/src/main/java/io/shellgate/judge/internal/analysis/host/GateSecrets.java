package io.shellgate.judge.internal.analysis.host;

import io.shellgate.rules.Places;
import java.nio.file.Path;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The judge server's run directories, whose files (token, proof, a session's pass, sockets) let
 * whoever reads them stop the server, answer in its place or write audit records: wherever
 * {@link Places#run} puts them from the request's environment or from the judging process's own,
 * and wherever it would fall back to. Reading anything in them asks, as reading a sensitive path
 * does, whatever the policy's path sets say.
 */
public final class GateSecrets {

    private static final List<String> OWN = dirs(System.getenv());

    private final List<String> dirs;

    private GateSecrets(List<String> dirs) {
        this.dirs = dirs;
    }

    /** The run directories of a request with environment {@code env}, plus this process's own. */
    public static GateSecrets of(Map<String, String> env) {
        Set<String> all = new LinkedHashSet<>(OWN);
        all.addAll(dirs(env));
        return new GateSecrets(List.copyOf(all));
    }

    /** The run directory {@code path} (absolute, normalised) is in or is, or null when none. */
    public String holding(String path) {
        for (String d : dirs) {
            // compared without regard to case, as the sensitive set is (macOS opens SERVER.TOKEN for server.token)
            if (holding(path, d)) {
                return d;
            }
        }
        return null;
    }

    /** A run directory that reading {@code dir} recursively would reach, or null. */
    public String under(String dir) {
        for (String d : dirs) {
            if (holding(d, dir)) {
                return d;
            }
        }
        return null;
    }

    private static boolean holding(String path, String dir) {
        return dir.equals("/") || path.equalsIgnoreCase(dir) || path.length() > dir.length() && path.charAt(dir.length()) == '/'
                && path.regionMatches(true, 0, dir, 0, dir.length());
    }

    private static List<String> dirs(Map<String, String> env) {
        return Places.runCandidates(env).stream().map(Path::normalize).map(Path::toString)
                .filter(d -> !d.equals("/")).distinct().toList();
    }
}
