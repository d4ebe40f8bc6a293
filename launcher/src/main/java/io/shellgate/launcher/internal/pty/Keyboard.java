package io.shellgate.launcher.internal.pty;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * The user's keys: passed to the shell byte for byte, except while the proxy asks a question,
 * when they go to the proxy and the shell never sees them. Tells the {@link EscapeWatch} when
 * Enter is pressed outside a bracketed paste.
 */
final class Keyboard {

    private static final byte[] PASTE_START = {27, '[', '2', '0', '0', '~'};
    private static final byte[] PASTE_END = {27, '[', '2', '0', '1', '~'};

    private final InputStream in;
    private final OutputStream shell;
    private final EscapeWatch watch;
    private final LineEditor editor;
    private final BlockingQueue<Keys> diverted = new LinkedBlockingQueue<>();
    private volatile boolean asking;
    private boolean pasting;
    private int startMatched;
    private int endMatched;

    Keyboard(InputStream in, OutputStream shell, EscapeWatch watch, LineEditor editor) {
        this.in = in;
        this.shell = shell;
        this.watch = watch;
        this.editor = editor;
    }

    /** Copies keys until the user's terminal or the shell's input closes. */
    void pump() {
        byte[] buf = new byte[8192];
        try {
            int n;
            while ((n = in.read(buf)) >= 0) {
                if (asking) {
                    // one read is one burst: several keys at once are a paste or a program typing
                    diverted.add(new Keys(Arrays.copyOf(buf, n), System.nanoTime()));
                    continue;
                }
                if (editor != null) {
                    editor.keys(buf, n, shell);
                    continue;
                }
                scan(buf, n);
                shell.write(buf, 0, n);
                shell.flush();
            }
        } catch (IOException e) {
            // one side is gone: the session is ending
        }
        diverted.add(new Keys(new byte[0], System.nanoTime()));
    }

    /** One read from the user's keyboard while a question was asked, and when it came; no bytes at end of input. */
    record Keys(byte[] bytes, long at) {}

    private void scan(byte[] buf, int n) {
        for (int i = 0; i < n; i++) {
            byte b = buf[i];
            startMatched = b == PASTE_START[startMatched] ? startMatched + 1 : (b == 27 ? 1 : 0);
            endMatched = b == PASTE_END[endMatched] ? endMatched + 1 : (b == 27 ? 1 : 0);
            if (startMatched == PASTE_START.length) {
                pasting = true;
                startMatched = 0;
            }
            if (endMatched == PASTE_END.length) {
                pasting = false;
                endMatched = 0;
            }
            if ((b == '\r' || b == '\n') && !pasting) {
                watch.enter();
            }
        }
    }

    /** Starts diverting keys to {@link #key}; keys typed before this went to the shell. */
    void divert() {
        diverted.clear();
        asking = true;
    }

    void release() {
        asking = false;
    }

    /** The next read of diverted keys, or null when none came in time. */
    Keys keys(Duration timeout) throws InterruptedException {
        return diverted.poll(timeout.toMillis(), TimeUnit.MILLISECONDS);
    }
}
