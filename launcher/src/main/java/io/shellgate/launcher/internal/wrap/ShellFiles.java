package io.shellgate.launcher.internal.wrap;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The shell files on this machine that an agent could start: every known shell name in the
 * system directories, on the agent's {@code PATH} and at {@code $SHELL}, each followed through its
 * links to the file that really runs.
 */
final class ShellFiles {

    /**
     * One file that runs a shell.
     *
     * @param file the file itself, links resolved (what a mount covers)
     * @param name the name it was found under first (sh for /usr/bin/dash reached as sh)
     * @param judged whether the judge reads that shell's language
     */
    record Found(Path file, String name, boolean judged) {}

    private ShellFiles() {}

    /** The files, each once, in the order they were found. */
    static List<Found> find(String path, String shell) {
        Set<Path> dirs = new LinkedHashSet<>();
        for (String d : KnownShells.SYSTEM_DIRS) {
            dirs.add(Path.of(d));
        }
        if (path != null) {
            for (String d : path.split(":")) {
                // a relative PATH entry names a different directory in every cwd: it cannot be covered
                if (d.startsWith("/")) {
                    dirs.add(Path.of(d));
                }
            }
        }
        Map<Path, Found> found = new LinkedHashMap<>();
        if (shell != null && shell.startsWith("/")) {
            add(found, Path.of(shell));
        }
        for (Path dir : dirs) {
            for (String name : names()) {
                add(found, dir.resolve(name));
            }
        }
        return new ArrayList<>(found.values());
    }

    private static List<String> names() {
        List<String> all = new ArrayList<>(KnownShells.JUDGED);
        all.addAll(KnownShells.UNJUDGED);
        return all;
    }

    private static void add(Map<Path, Found> found, Path candidate) {
        if (!Files.isRegularFile(candidate) || !Files.isExecutable(candidate)) {
            return;
        }
        try {
            Path real = candidate.toRealPath();
            String name = candidate.getFileName().toString();
            if (!names().contains(name) && !names().contains(real.getFileName().toString())) {
                // $SHELL may name anything, shellgate's own launcher included: only shells are covered
                return;
            }
            found.putIfAbsent(real, new Found(real, name, KnownShells.judged(name) && KnownShells.judged(real.getFileName().toString())));
        } catch (IOException e) {
            // vanished between the two looks: nothing to cover
        }
    }
}
