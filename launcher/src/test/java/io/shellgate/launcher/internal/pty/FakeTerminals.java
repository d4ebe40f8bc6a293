package io.shellgate.launcher.internal.pty;

import io.shellgate.launcher.internal.terminal.PseudoTerminal;
import io.shellgate.launcher.internal.terminal.UserTerminal;
import io.shellgate.launcher.internal.terminal.WindowSize;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PipedInputStream;
import java.io.PipedOutputStream;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;

/** Pure-Java stand-ins for the user's terminal and a shell's pseudo-terminal. */
final class FakeTerminals {

    private FakeTerminals() {}

    /** A user's terminal whose keys the test types and whose screen it reads. */
    static final class User implements UserTerminal {
        final PipedOutputStream keys = new PipedOutputStream();
        private final PipedInputStream in;
        final ByteArrayOutputStream screen = new ByteArrayOutputStream();
        volatile WindowSize size = new WindowSize(80, 24);
        volatile Runnable resized;
        volatile boolean raw;
        volatile int restored;

        User() {
            try {
                in = new PipedInputStream(keys, 1 << 16);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        @Override
        public InputStream input() {
            return in;
        }

        @Override
        public OutputStream output() {
            return screen;
        }

        @Override
        public WindowSize size() {
            return size;
        }

        @Override
        public void onResize(Runnable listener) {
            resized = listener;
        }

        @Override
        public void enterRaw() {
            raw = true;
        }

        @Override
        public void restore() {
            if (raw) {
                raw = false;
                restored++;
            }
        }

        byte[] shown() {
            synchronized (screen) {
                return screen.toByteArray();
            }
        }
    }

    /** A "shell" that prints what the test gives it and exits with the code the test chooses. */
    static final class Child implements PseudoTerminal, PseudoTerminal.Spawner {
        final PipedOutputStream prints = new PipedOutputStream();
        private final PipedInputStream out;
        final ByteArrayOutputStream typed = new ByteArrayOutputStream();
        final List<WindowSize> sizes = new ArrayList<>();
        final CountDownLatch spawned = new CountDownLatch(1);
        private final CountDownLatch exited = new CountDownLatch(1);
        volatile List<String> command;
        private volatile int code;

        Child() {
            try {
                out = new PipedInputStream(prints, 1 << 20);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        @Override
        public PseudoTerminal spawn(List<String> command, Map<String, String> env, Path cwd, WindowSize size) {
            this.command = command;
            sizes.add(size);
            spawned.countDown();
            return this;
        }

        void exit(int exitCode) throws IOException {
            code = exitCode;
            prints.close();
            exited.countDown();
        }

        @Override
        public InputStream output() {
            return out;
        }

        @Override
        public OutputStream input() {
            return typed;
        }

        @Override
        public synchronized void resize(WindowSize size) {
            sizes.add(size);
        }

        @Override
        public long pid() {
            return 4242;
        }

        @Override
        public int waitFor() throws InterruptedException {
            exited.await();
            return code;
        }

        @Override
        public boolean isAlive() {
            return exited.getCount() > 0;
        }

        @Override
        public void close() {}
    }
}
