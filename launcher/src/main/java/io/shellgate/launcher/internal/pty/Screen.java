package io.shellgate.launcher.internal.pty;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;

/** The user's terminal output, shared by the shell's output and the proxy's own messages. */
final class Screen {

    private final OutputStream out;

    Screen(OutputStream out) {
        this.out = out;
    }

    synchronized void write(byte[] bytes, int off, int len) throws IOException {
        out.write(bytes, off, len);
        out.flush();
    }

    /** Prints text of the proxy's own; the terminal is raw, so every newline becomes CR LF. */
    synchronized void say(String text) {
        try {
            out.write(text.replace("\r\n", "\n").replace("\n", "\r\n").getBytes(StandardCharsets.UTF_8));
            out.flush();
        } catch (IOException e) {
            // the terminal is gone; the shell will get SIGHUP and end the session
        }
    }
}
