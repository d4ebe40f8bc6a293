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
     * @param multiCall whether the file is busybox, which runs the program it is named as, shells among many others
     */
    record Found(Path file, String name, boolean judged, boolean multiCall) {}

    /** The multi-call program whose shell applets are covered (its other applets run as they are). */
    static final String BUSYBOX = "busybox";

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
            // busybox is no shell file, but "busybox sh" runs one
            add(found, dir.resolve(BUSYBOX));
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
            String realName = real.getFileName().toString();
            boolean multiCall = realName.equals(BUSYBOX);
            if (!names().contains(name) && !names().contains(realName) && !multiCall) {
                // $SHELL may name anything, shellgate's own launcher included: only shells are covered
                return;
            }
            found.putIfAbsent(real, new Found(real, name, KnownShells.judged(name) && KnownShells.judged(realName), multiCall));
        } catch (IOException e) {
            // vanished between the two looks: nothing to cover
        }
    }
}
