package io.shellgate.it;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A private world for the built launcher: its own HOME, run directory (so servers of different
 * tests never meet) and working directory, a known PATH, and the real bash unless a test chooses.
 * Closing it stops every judge server that was started in it.
 */
final class Sandbox implements AutoCloseable {

    /** A user policy with one deny rule of its own. */
    static final String DENY_MAKE_DEPLOY = """
            [[rule]]
            id = "no-make-deploy"
            tier = "deny"
            reason = "deploys need a person"
            command = ["make"]
            args-any = ["deploy"]
            match = ["make deploy"]
            not-match = ["make test"]
            """;

    /** AOT caches are shared by all tests, so that only the first JVM start pays for making one. */
    private static final Path CACHE = Path.of("target/it-cache").toAbsolutePath();

    final Path root;
    final Path home;
    final Path run;
    final Path work;
    final Map<String, String> env = new HashMap<>();
    private final List<Process> started = new ArrayList<>();

    Sandbox(Path root) throws Exception {
        this.root = root;
        this.home = Files.createDirectories(root.resolve("home"));
        this.run = root.resolve("run");
        this.work = Files.createDirectories(root.resolve("work"));
        env.put("PATH", "/usr/bin:/bin");
        env.put("HOME", home.toString());
        env.put("LANG", "C.UTF-8");
        env.put("SHELLGATE_JAVA_HOME", LauncherScriptTest.jdk25().toString());
        env.put("SHELLGATE_RUN_DIR", run.toString());
        env.put("SHELLGATE_CACHE_DIR", CACHE.toString());
        // a server that a test leaves behind goes away by itself
        env.put("SHELLGATE_SERVER_IDLE_SECONDS", "60");
        env.put("SHELLGATE_SHELL", "/bin/bash");
        // an ask is refused at once unless a test waits for a person on purpose
        env.put("SHELLGATE_REVIEW_TIMEOUT_SECONDS", "0");
    }

    /** Runs {@code shellgate ARGS} in the working directory with this environment. */
    Processes.Result shellgate(byte[] stdin, String... args) throws Exception {
        return shellgate(env, stdin, args);
    }

    Processes.Result shellgate(String... args) throws Exception {
        return shellgate(env, null, args);
    }

    Processes.Result shellgate(Map<String, String> environment, byte[] stdin, String... args) throws Exception {
        List<String> command = new ArrayList<>();
        command.add(Processes.launcher().toString());
        command.addAll(List.of(args));
        return Processes.run(command, environment, stdin, work);
    }

    static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    /** How a client reaches a judge: through a running server, or with a JVM of its own per command. */
    enum Mode { SERVER, NO_SERVER }

    /**
     * A client environment for a mode. SERVER starts the server first and gives the client no JVM
     * to fall back on, so that every answer must come from the server.
     */
    Map<String, String> client(Mode mode) throws Exception {
        Map<String, String> client = new HashMap<>(env);
        if (mode == Mode.SERVER) {
            startServer();
            client.put("SHELLGATE_JAVA_HOME", root.resolve("no-jdk-here").toString());
        } else {
            client.put("SHELLGATE_NO_SERVER", "1");
        }
        return client;
    }

    /** Starts {@code shellgate serve ARGS} and waits until it has published its port and token. */
    Process startServer(String... args) throws Exception {
        List<String> command = new ArrayList<>(List.of(Processes.launcher().toString(), "serve"));
        command.addAll(List.of(args));
        Process p = Processes.start(command, env, work);
        started.add(p);
        awaitServer(p);
        return p;
    }

    private void awaitServer(Process p) throws Exception {
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (System.nanoTime() < deadline) {
            if (Files.isRegularFile(run.resolve("server.pid")) && Files.isRegularFile(run.resolve("server.token"))
                    && Files.isRegularFile(run.resolve("server.port"))
                    && Files.readString(run.resolve("server.pid")).strip().equals(Long.toString(p.pid()))) {
                return;
            }
            if (!p.isAlive()) {
                throw new IllegalStateException("the server exited with " + p.exitValue() + ": "
                        + new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8));
            }
            Thread.sleep(50);
        }
        throw new IllegalStateException("the server did not publish its files in " + run);
    }

    int port() throws IOException {
        return Integer.parseInt(Files.readString(run.resolve("server.port")).strip());
    }

    String token() throws IOException {
        return Files.readString(run.resolve("server.token")).strip();
    }

    /** The pid in the run directory, if a server has published one. */
    Optional<ProcessHandle> server() throws IOException {
        Path pid = run.resolve("server.pid");
        String text;
        try {
            text = Files.readString(pid).strip();
        } catch (java.nio.file.NoSuchFileException e) {
            // none, or a server that is just stopping took its file away
            return Optional.empty();
        }
        return text.isEmpty() ? Optional.empty() : ProcessHandle.of(Long.parseLong(text));
    }

    /** Waits for a server that a client started on demand, up to a minute. */
    ProcessHandle awaitOnDemandServer() throws Exception {
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (System.nanoTime() < deadline) {
            Optional<ProcessHandle> h = server();
            if (h.isPresent() && Files.isRegularFile(run.resolve("server.port"))) {
                return h.get();
            }
            Thread.sleep(50);
        }
        throw new IllegalStateException("no server was started in " + run);
    }

    /**
     * Stops every server of this sandbox, including one that was still starting when another won
     * the run directory (found by the run directory in its environment).
     */
    @Override
    public void close() throws Exception {
        for (Process p : started) {
            p.destroy();
        }
        server().ifPresent(ProcessHandle::destroy);
        String mark = "SHELLGATE_RUN_DIR=" + run;
        ProcessHandle.allProcesses()
                .filter(h -> h.info().arguments().map(a -> List.of(a).contains("serve")).orElse(false))
                .filter(h -> environment(h).contains(mark))
                .forEach(ProcessHandle::destroy);
        for (Process p : started) {
            p.waitFor();
        }
    }

    private static List<String> environment(ProcessHandle h) {
        try {
            return List.of(Files.readString(Path.of("/proc/" + h.pid() + "/environ"), StandardCharsets.ISO_8859_1).split("\u0000"));
        } catch (IOException | RuntimeException e) {
            return List.of();
        }
    }
}
