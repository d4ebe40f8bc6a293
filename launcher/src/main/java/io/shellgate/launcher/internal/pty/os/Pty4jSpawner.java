package io.shellgate.launcher.internal.pty.os;

import com.pty4j.PtyProcess;
import com.pty4j.PtyProcessBuilder;
import com.pty4j.WinSize;
import com.pty4j.unix.UnixPtyProcess;
import io.shellgate.launcher.internal.terminal.PseudoTerminal;
import io.shellgate.launcher.internal.terminal.WindowSize;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/** Pseudo-terminals from pty4j; its native library is extracted once to the cache directory. */
final class Pty4jSpawner implements PseudoTerminal.Spawner {

    Pty4jSpawner(Path nativeFolder) {
        // without it pty4j unpacks libpty into a new temporary directory on every run and leaves it there
        System.setProperty("pty4j.preferred.native.folder", nativeFolder.toString());
    }

    @Override
    public PseudoTerminal spawn(List<String> command, Map<String, String> env, Path cwd, WindowSize size) throws IOException {
        PtyProcess p = new PtyProcessBuilder(command.toArray(String[]::new))
                .setEnvironment(env)
                .setDirectory(cwd.toString())
                .setInitialColumns(size.columns())
                .setInitialRows(size.rows())
                .setConsole(false)
                .setRedirectErrorStream(true)
                .start();
        // on Unix the master side is read directly (see PosixFdInput); elsewhere through pty4j
        PosixFdInput direct = p instanceof UnixPtyProcess u ? PosixFdInput.dup(u.getPty().getMasterFD()) : null;
        return new Pty4jTerminal(p, direct != null ? direct : p.getInputStream());
    }

    private record Pty4jTerminal(PtyProcess process, InputStream output) implements PseudoTerminal {

        @Override
        public OutputStream input() {
            return process.getOutputStream();
        }

        @Override
        public void resize(WindowSize size) {
            if (process.isAlive()) {
                process.setWinSize(new WinSize(size.columns(), size.rows()));
            }
        }

        @Override
        public boolean shellInForeground() {
            return output instanceof PosixFdInput direct && direct.foregroundGroup() == process.pid();
        }

        @Override
        public long pid() {
            return process.pid();
        }

        @Override
        public int waitFor() throws InterruptedException {
            return process.waitFor();
        }

        @Override
        public boolean isAlive() {
            return process.isAlive();
        }

        @Override
        public void close() {
            if (process.isAlive()) {
                process.destroy();
            }
            try {
                output.close();
            } catch (IOException e) {
                // pty4j's stream: closed with the process
            }
        }
    }
}
