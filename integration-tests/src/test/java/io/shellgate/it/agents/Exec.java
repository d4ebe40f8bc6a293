package io.shellgate.it.agents;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** One successful execve of a traced run: which file, with which argv and environment. */
public record Exec(double time, int pid, String path, List<String> argv, Map<String, String> env) {

    private static final Set<String> SHELLS = Set.of("sh", "bash", "zsh", "dash", "ksh", "fish");

    public boolean isShell() {
        return SHELLS.contains(Path.of(path).getFileName().toString());
    }

    @Override
    public String toString() {
        return pid + " " + path + " " + argv;
    }
}
