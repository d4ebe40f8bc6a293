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
                synchronized (this) {
                    if (asking) {
                        // one read is one burst: several keys at once are a paste or a program typing
                        diverted.add(new Keys(Arrays.copyOf(buf, n), System.nanoTime()));
                        continue;
                    }
                    deliver(buf, n);
                }
            }
        } catch (IOException e) {
            // one side is gone: the session is ending
        }
        diverted.add(new Keys(new byte[0], System.nanoTime()));
    }

    /** Gives keys to the shell (through the proxy's own line editor where it keeps the line). */
    private void deliver(byte[] buf, int n) throws IOException {
        if (editor != null) {
            editor.keys(buf, n, shell);
            return;
        }
        scan(buf, n);
        shell.write(buf, 0, n);
        shell.flush();
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

    /**
     * Ends the question, giving the shell what was typed meanwhile that did not answer it ({@code kept}: a line typed
     * ahead, a paste; null for none) and every read after it, in the order typed, as if typed now: the shell judges
     * each line of it at Enter as any other.
     */
    synchronized void release(byte[] kept) {
        try {
            if (kept != null && kept.length > 0) {
                deliver(kept, kept.length);
            }
            for (Keys k = diverted.poll(); k != null; k = diverted.poll()) {
                if (k.bytes().length == 0) {
                    // the keyboard closed: keep saying so
                    diverted.add(k);
                    break;
                }
                deliver(k.bytes(), k.bytes().length);
            }
        } catch (IOException e) {
            // the shell is gone: the session is ending
        } finally {
            asking = false;
        }
    }

    /** The next read of diverted keys, or null when none came in time. */
    Keys keys(Duration timeout) throws InterruptedException {
        return diverted.poll(timeout.toMillis(), TimeUnit.MILLISECONDS);
    }
}
