package io.shellgate.judge.internal.envelope;

import io.shellgate.judge.internal.envelope.SnapshotDefinitions.Read;
import java.nio.file.Path;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * What sourcing an agent's shell snapshot leaves for the command after it. The snapshot must be
 * definitions only ({@link SnapshotDefinitions}); the command's programs are then found along the
 * {@code PATH} it sets, which may differ from the agent's own, so the inner request carries that
 * {@code PATH}. Any other variable it exports must keep the value the agent's environment already
 * has (or be one the envelope restores afterwards): a changed one would change what the command
 * does in ways the inner request does not show.
 */
final class SnapshotPath {

    private SnapshotPath() {}

    /**
     * The definitions the envelope's source of {@code snapshot} makes, or null when sourcing it
     * would run something, change a variable, or cannot be read (the envelope is then not
     * recognised, and the whole text is judged as usual).
     *
     * @param claude whether Claude Code's own block may end the file
     * @param restored variables the envelope sets back after sourcing
     */
    static Read.Definitions sourced(Path snapshot, boolean claude, Map<String, String> env, Set<String> restored) {
        SnapshotFile.Snapshot s = SnapshotFile.read(snapshot, claude);
        if (!(s.read() instanceof Read.Definitions d)) {
            return null;
        }
        if (s.claudeHome() != null && !Objects.equals(String.valueOf(AgentFiles.home(env)), s.claudeHome())) {
            return null;
        }
        for (Map.Entry<String, String> e : d.exports().entrySet()) {
            // export NAME without a value only marks a variable: it changes no value
            boolean unchanged = e.getValue() == null || e.getValue().equals(env.get(e.getKey()))
                    || samePass(e.getKey(), e.getValue(), env.get(e.getKey()));
            if (!unchanged && !restored.contains(e.getKey())) {
                return null;
            }
        }
        return d;
    }

    /**
     * A snapshot made by a shell shellgate wrap let run holds that shell's pass: the session's key and the process it
     * named. The key is the command's own; the process is one that has ended, so the pass lets no shell through that
     * the command's own pass would not (wrap's entries take a pass only in the process it names and below).
     */
    private static boolean samePass(String name, String value, String current) {
        if (!name.equals("SHELLGATE_PASS") || current == null) {
            return false;
        }
        int a = value.indexOf('.');
        int b = current.indexOf('.');
        return a > 0 && a == b && value.regionMatches(0, current, 0, a);
    }

    /** Puts the PATH {@code sourced} leaves into {@code env}, {@code prefix} before it when not null. */
    static void applyTo(Read.Definitions sourced, Map<String, String> env, String prefix) {
        String path = sourced.path() == null ? env.get("PATH") : sourced.path();
        if (prefix != null) {
            path = path == null || path.isEmpty() ? prefix : prefix + ":" + path;
        }
        if (path != null) {
            env.put("PATH", path);
        }
    }
}
