package io.shellgate.launcher.internal.terminal;

import java.io.InputStream;
import java.io.OutputStream;

/**
 * The terminal the person sits at. {@link #enterRaw()} hands every key to us unprocessed (no echo,
 * no line editing, no signals from Ctrl-C or Ctrl-Z); {@link #restore()} puts back exactly the
 * settings found, and is safe to call more than once and from a shutdown hook.
 */
public interface UserTerminal {

    InputStream input();

    OutputStream output();

    WindowSize size();

    /** Calls {@code listener} whenever the terminal's size changes. */
    void onResize(Runnable listener);

    void enterRaw() throws java.io.IOException;

    void restore();
}
