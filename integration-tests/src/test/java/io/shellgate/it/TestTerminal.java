package io.shellgate.it;

import com.pty4j.PtyProcess;
import com.pty4j.PtyProcessBuilder;
import com.pty4j.WinSize;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.JarURLConnection;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;

/**
 * A terminal of the test's own (a pty4j pseudo-terminal) with the built launcher running in it, as
 * a person's terminal emulator would run it: keys are typed into it and everything printed is kept.
 */
public final class TestTerminal implements AutoCloseable {

    private static final Duration PATIENCE = Duration.ofSeconds(60);
    private static final Path NATIVE = Path.of("target/it-cache/test-pty4j").toAbsolutePath();

    private final PtyProcess process;
    private final ByteArrayOutputStream seen = new ByteArrayOutputStream();
    private final Thread reader;
    private int mark;

    private TestTerminal(PtyProcess process) {
        this.process = process;
        this.reader = Thread.ofPlatform().daemon().start(this::read);
    }

    /** Starts {@code shellgate ARGS} in a new terminal of 80 by 24 in the sandbox. */
    static TestTerminal start(Sandbox box, String... args) throws IOException {
        List<String> command = new ArrayList<>();
        command.add(Processes.launcher().toString());
        command.addAll(List.of(args));
        return run(box, command);
    }

    /** Runs any command in a new terminal of 80 by 24 in the sandbox. */
    static TestTerminal run(Sandbox box, List<String> command) throws IOException {
        return run(command, box.env, box.work, 80, 24);
    }

    /** Runs {@code command} with exactly {@code env} (TERM becomes xterm) in {@code dir}, in a new terminal. */
    public static TestTerminal run(List<String> command, Map<String, String> env, Path dir, int columns, int rows)
            throws IOException {
        nativeFolder();
        Map<String, String> all = new java.util.HashMap<>(env);
        all.put("TERM", "xterm");
        PtyProcess p = new PtyProcessBuilder(command.toArray(String[]::new)).setEnvironment(all)
                .setDirectory(dir.toString()).setInitialColumns(columns).setInitialRows(rows).setConsole(false).start();
        return new TestTerminal(p);
    }

    private void read() {
        InputStream in = process.getInputStream();
        byte[] buf = new byte[65536];
        try {
            int n;
            while ((n = in.read(buf)) >= 0) {
                synchronized (seen) {
                    seen.write(buf, 0, n);
                    seen.notifyAll();
                }
            }
        } catch (IOException e) {
            // the terminal closed
        }
    }

    public void type(String keys) throws IOException {
        process.getOutputStream().write(keys.getBytes(StandardCharsets.UTF_8));
        process.getOutputStream().flush();
    }

    /**
     * Waits until {@code marker} appears after what earlier waits consumed, and returns the text
     * from there up to and including it (bytes as ISO-8859-1, one char per byte).
     */
    public String await(String marker) throws InterruptedException {
        long deadline = System.nanoTime() + PATIENCE.toNanos();
        byte[] want = marker.getBytes(StandardCharsets.ISO_8859_1);
        synchronized (seen) {
            int from = mark;
            while (true) {
                byte[] all = seen.toByteArray();
                int at = indexOf(all, want, from);
                if (at >= 0) {
                    String text = new String(all, mark, at + want.length - mark, StandardCharsets.ISO_8859_1);
                    mark = at + want.length;
                    return text;
                }
                from = Math.max(mark, all.length - want.length);
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    throw new AssertionError("no \"" + marker + "\" on the terminal within " + PATIENCE + "; after the last"
                            + " match it showed:\n" + new String(all, mark, all.length - mark, StandardCharsets.UTF_8));
                }
                seen.wait(Math.max(1, TimeUnit.NANOSECONDS.toMillis(left)));
            }
        }
    }

    /**
     * Waits until {@code text} shows on the screen of a full-screen program, which draws words at
     * cursor positions rather than as a run of characters: control sequences and white space are
     * left out of both sides before comparing. Consumes everything seen so far.
     */
    public String awaitOnScreen(String text) throws InterruptedException {
        long deadline = System.nanoTime() + PATIENCE.toNanos();
        String want = text.replaceAll("\\s+", "");
        synchronized (seen) {
            while (true) {
                byte[] all = seen.toByteArray();
                String shown = new String(all, mark, all.length - mark, StandardCharsets.UTF_8);
                String plain = shown.replaceAll("\u001b\\[[0-9;?<>=]*[ -/]*[@-~]", "")
                        .replaceAll("\u001b\\][^\u0007\u001b]*(\u0007|\u001b\\\\)", "")
                        .replaceAll("\u001b.", "").replaceAll("\\s+", "");
                if (plain.contains(want)) {
                    mark = all.length;
                    return plain;
                }
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    throw new AssertionError("no \"" + text + "\" on the screen within " + PATIENCE + "; it showed:\n" + plain);
                }
                seen.wait(Math.max(1, TimeUnit.NANOSECONDS.toMillis(left)));
            }
        }
    }

    /**
     * Waits until every one of {@code markers} appears after what earlier waits consumed, in any
     * order (the proxy's own messages and the shell's output reach the terminal on two paths), and
     * consumes up to the last of them.
     */
    public String awaitAll(String... markers) throws InterruptedException {
        long deadline = System.nanoTime() + PATIENCE.toNanos();
        synchronized (seen) {
            while (true) {
                byte[] all = seen.toByteArray();
                int end = mark;
                boolean found = true;
                for (String m : markers) {
                    byte[] want = m.getBytes(StandardCharsets.ISO_8859_1);
                    int at = indexOf(all, want, mark);
                    if (at < 0) {
                        found = false;
                        break;
                    }
                    end = Math.max(end, at + want.length);
                }
                if (found) {
                    String text = new String(all, mark, end - mark, StandardCharsets.ISO_8859_1);
                    mark = end;
                    return text;
                }
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    throw new AssertionError("not all of " + List.of(markers) + " on the terminal within " + PATIENCE
                            + "; after the last match it showed:\n" + new String(all, mark, all.length - mark, StandardCharsets.UTF_8));
                }
                seen.wait(Math.max(1, TimeUnit.NANOSECONDS.toMillis(left)));
            }
        }
    }

    /** Everything shown after the last match so far. */
    public String rest() {
        synchronized (seen) {
            byte[] all = seen.toByteArray();
            return new String(all, mark, all.length - mark, StandardCharsets.ISO_8859_1);
        }
    }

    private static int indexOf(byte[] hay, byte[] needle, int from) {
        outer:
        for (int i = Math.max(0, from); i <= hay.length - needle.length; i++) {
            for (int j = 0; j < needle.length; j++) {
                if (hay[i + j] != needle[j]) {
                    continue outer;
                }
            }
            return i;
        }
        return -1;
    }

    /** Waits until a process named {@code name} runs below the terminal's first process. */
    void awaitProcess(String name) throws InterruptedException {
        long deadline = System.nanoTime() + PATIENCE.toNanos();
        while (ProcessHandle.of(process.pid()).stream().flatMap(ProcessHandle::descendants).noneMatch(h -> h.info().command().map(c -> c.endsWith("/" + name)).orElse(false))) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("no " + name + " started within " + PATIENCE);
            }
            Thread.sleep(20);
        }
    }

    void resize(int columns, int rows) {
        process.setWinSize(new WinSize(columns, rows));
    }

    /** Waits for shellgate to exit and returns its exit code. */
    public int exitCode() throws InterruptedException {
        if (!process.waitFor(PATIENCE.toSeconds(), TimeUnit.SECONDS)) {
            throw new AssertionError("shellgate did not exit; the terminal shows:\n" + rest());
        }
        reader.join(PATIENCE.toMillis());
        return process.exitValue();
    }

    /** Ends everything started in the terminal (the launcher, the proxy's JVM, the shell) and waits for it. */
    @Override
    public void close() {
        List<ProcessHandle> all = new ArrayList<>();
        ProcessHandle.of(process.pid()).ifPresent(h -> {
            all.addAll(h.descendants().toList());
            all.add(h);
        });
        all.forEach(ProcessHandle::destroy);
        for (ProcessHandle h : all) {
            try {
                h.onExit().get(10, TimeUnit.SECONDS);
            } catch (Exception e) {
                h.destroyForcibly();
            }
        }
        if (process.isAlive()) {
            process.destroyForcibly();
        }
    }

    /** pty4j's and JNA's native files extracted once under target/, not into /tmp on every run. */
    private static synchronized void nativeFolder() throws IOException {
        if (System.getProperty("pty4j.preferred.native.folder") != null) {
            return;
        }
        String arch = System.getProperty("os.arch").equals("amd64") ? "x86-64" : System.getProperty("os.arch");
        extract("resources/com/pty4j/native/linux/", NATIVE.resolve("linux"));
        extract("com/sun/jna/linux-" + arch + "/", NATIVE.resolve("jna"));
        System.setProperty("jna.boot.library.path", NATIVE.resolve("jna").toString());
        System.setProperty("jna.nounpack", "true");
        System.setProperty("pty4j.preferred.native.folder", NATIVE.toString());
    }

    private static void extract(String dir, Path to) throws IOException {
        URL url = TestTerminal.class.getClassLoader().getResource(dir);
        if (url == null || !(url.openConnection() instanceof JarURLConnection c)) {
            throw new IOException("no " + dir + " in a jar on the class path");
        }
        c.setUseCaches(false);
        try (JarFile jar = c.getJarFile()) {
            for (JarEntry e : Collections.list(jar.entries())) {
                if (!e.isDirectory() && e.getName().startsWith(dir)) {
                    Path target = to.resolve(e.getName().substring(dir.length()));
                    Files.createDirectories(target.getParent());
                    try (InputStream in = jar.getInputStream(e)) {
                        Files.copy(in, target, StandardCopyOption.REPLACE_EXISTING);
                    }
                }
            }
        }
    }
}
