package io.shellgate.launcher.internal.pty;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/** cmd: the proxy edits the line. */
public record CmdIntegration() implements Integration {

    @Override
    public void install(Path dir) throws IOException {
        throw new IOException("cmd is not supported yet");
    }

    @Override
    public List<String> command(String shell, Path dir, boolean login) {
        return List.of(shell);
    }

    @Override
    public Map<String, String> env(Path dir, Map<String, String> userEnv) {
        return Map.of();
    }
}
