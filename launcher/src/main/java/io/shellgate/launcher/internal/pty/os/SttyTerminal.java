package io.shellgate.launcher.internal.pty.os;

import io.shellgate.launcher.internal.terminal.UserTerminal;
import io.shellgate.launcher.internal.terminal.WindowSize;
import java.io.File;
import java.io.FileDescriptor;
import java.io.FileInputStream;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.TimeUnit;
import sun.misc.Signal;

/**
 * The controlling terminal on Unix, set with {@code stty} (as JLine's exec provider does) and
 * told about resizes by SIGWINCH. Reads and writes go straight to file descriptors 0 and 1,
 * unbuffered, so bytes pass through exactly.
 */
final class SttyTerminal implements UserTerminal {

    private static final File TTY = new File("/dev/tty");

    private final InputStream in = new FileInputStream(FileDescriptor.in);
    private final OutputStream out = new FileOutputStream(FileDescriptor.out);
    private volatile String saved;

    @Override
    public InputStream input() {
        return in;
    }

    @Override
    public OutputStream output() {
        return out;
    }

    @Override
    public WindowSize size() {
        String[] rc = stty("size").strip().split("\\s+");
        try {
            WindowSize s = new WindowSize(Integer.parseInt(rc[1]), Integer.parseInt(rc[0]));
            return s.columns() > 0 && s.rows() > 0 ? s : WindowSize.DEFAULT;
        } catch (RuntimeException e) {
            return WindowSize.DEFAULT;
        }
    }

    @Override
    public void onResize(Runnable listener) {
        Signal.handle(new Signal("WINCH"), s -> listener.run());
    }

    @Override
    public void enterRaw() throws IOException {
        String settings = stty("-g").strip();
        if (settings.isEmpty()) {
            throw new IOException("cannot read the terminal's settings with stty -g < /dev/tty");
        }
        saved = settings;
        stty("raw", "-echo");
    }

    @Override
    public synchronized void restore() {
        String s = saved;
        if (s != null) {
            saved = null;
            stty(s);
        }
    }

    private static String stty(String... args) {
        try {
            Process p = new ProcessBuilder(concat(args)).redirectInput(TTY).redirectError(ProcessBuilder.Redirect.DISCARD).start();
            byte[] out = p.getInputStream().readAllBytes();
            if (!p.waitFor(5, TimeUnit.SECONDS)) {
                p.destroyForcibly();
            }
            return new String(out, StandardCharsets.UTF_8);
        } catch (IOException e) {
            return "";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "";
        }
    }

    private static List<String> concat(String... args) {
        List<String> command = new java.util.ArrayList<>();
        command.add("stty");
        command.addAll(List.of(args));
        return command;
    }
}
