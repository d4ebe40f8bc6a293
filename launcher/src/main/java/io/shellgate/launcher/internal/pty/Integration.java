package io.shellgate.launcher.internal.pty;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * How a shell is started so that it hands every line to the proxy at Enter, without touching the
 * user's own startup files: the files written here source them, then install the hook.
 */
public sealed interface Integration permits BashIntegration, ZshIntegration, PowerShellIntegration, CmdIntegration {

    /** Writes the integration's files into the session's private directory. */
    void install(Path dir) throws IOException;

    /** The command line that starts the shell with the integration. */
    List<String> command(String shell, Path dir, boolean login);

    /** Variables to add to the shell's environment. */
    Map<String, String> env(Path dir, Map<String, String> userEnv);

    /** The private channel the hook talks to the proxy through. */
    default HookChannel channel(Path dir) throws IOException, InterruptedException {
        return new FifoChannel(dir);
    }

    /** The proxy's own line editing for a shell without a hook; null when the shell edits its lines itself. */
    default LineEditor editor(Path cwd, Map<String, String> env, Screen screen, EscapeWatch watch) {
        return null;
    }

    /** Quotes a string for a POSIX shell's single quotes. */
    static String quote(String s) {
        return "'" + s.replace("'", "'\\''") + "'";
    }
}
