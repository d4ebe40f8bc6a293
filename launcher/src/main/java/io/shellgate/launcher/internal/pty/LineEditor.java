package io.shellgate.launcher.internal.pty;

import java.io.IOException;
import java.io.OutputStream;

/**
 * For a shell without a hook (cmd): the proxy keeps the line itself. Keys go here instead of to
 * the shell; a whole line goes to the shell only once the proxy allowed it. The shell's output is
 * shown here too, for the prompt marks that tell where the shell is.
 */
interface LineEditor {

    /** Makes the editor once the proxy's screen exists; returns null when the shell edits its own lines. */
    interface Factory {
        LineEditor create(Screen screen, EscapeWatch watch);
    }

    /** Keys the person typed (not while the proxy asks a question). */
    void keys(byte[] buf, int len, OutputStream shell) throws IOException;

    /** Output of the shell, before it reaches the terminal unchanged. */
    void output(byte[] buf, int len);
}
