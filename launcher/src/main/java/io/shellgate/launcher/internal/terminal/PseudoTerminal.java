package io.shellgate.launcher.internal.terminal;

import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * A process running in a pseudo-terminal of its own: what it prints comes out of
 * {@link #output()} byte for byte, and what is written to {@link #input()} is what it reads as
 * typed keys (so Ctrl-C written as byte 3 becomes SIGINT through the terminal's line discipline).
 */
public interface PseudoTerminal extends AutoCloseable {

    /** Starts pseudo-terminal processes. */
    interface Spawner {
        PseudoTerminal spawn(List<String> command, Map<String, String> env, Path cwd, WindowSize size) throws java.io.IOException;
    }

    InputStream output();

    OutputStream input();

    void resize(WindowSize size);

    long pid();

    /**
     * Whether the process started here is the terminal's foreground process group: for a shell, no
     * job of its own runs, so the shell itself reads the keys. False when that cannot be told.
     */
    default boolean shellInForeground() {
        return false;
    }

    /** Waits for the process to exit and returns its exit code (128 + signal when a signal ended it). */
    int waitFor() throws InterruptedException;

    boolean isAlive();

    /** Ends the process if it still runs and releases the terminal. */
    @Override
    void close();
}
