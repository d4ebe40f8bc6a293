package io.shellgate.it.agents;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Assumptions;

/**
 * Runs a real, unmodified coding agent from npm against its stub model: non-interactively, in its
 * "run without asking" mode, with a private HOME and working directory, and an environment in which
 * nothing reaches a host other than 127.0.0.1 (proxy variables point at a {@link Tripwire}).
 *
 * <p>A run lives in a folder of the caller's: {@code home/} and {@code work/} (created if missing,
 * so a test can prepare the working directory first), the agent's {@code stdout.txt} and
 * {@code stderr.txt}, and with a trace, {@code trace/execve.PID}. The folder is left for inspection.
 */
public final class Agents {

    private Agents() {}

    /** Why agents cannot run here (no node 20+ or npm), or empty when they can. */
    public static Optional<String> unavailable() {
        return AgentInstall.unavailable();
    }

    /** The folder the pinned agents are installed in, installing them on first use. */
    public static Path install() throws IOException, InterruptedException {
        return AgentInstall.get();
    }

    /**
     * Installs the pinned agents for a test class, or, where node and npm are missing, skips it with
     * the reason; on CI (which installs node) that is a failure instead.
     */
    public static Path installOrSkip() throws IOException, InterruptedException {
        Optional<String> why = unavailable();
        if (why.isPresent()) {
            if ("true".equals(System.getenv("CI"))) {
                Assertions.fail(why.get());
            }
            Assumptions.assumeTrue(false, why.get());
        }
        return install();
    }

    /**
     * shellgate's own variables for a run in {@code root}: a JDK 25 for the launcher, and run, state
     * and cache folders of the run's own (the cache shared by all runs of the build).
     */
    public static Map<String, String> shellgateEnv(Path root) throws IOException {
        Map<String, String> env = new LinkedHashMap<>();
        env.put("SHELLGATE_JAVA_HOME", jdk25().toString());
        env.put("SHELLGATE_RUN_DIR", root.resolve("run").toString());
        env.put("SHELLGATE_STATE_DIR", root.resolve("state").toString());
        env.put("SHELLGATE_CACHE_DIR", Path.of("target/it-cache").toAbsolutePath().toString());
        return env;
    }

    private static Path jdk25() throws IOException {
        try (Stream<Path> jdks = Files.list(Path.of("/usr/lib/jvm"))) {
            for (Path h : jdks.sorted().toList()) {
                Path release = h.resolve("release");
                if (Files.isRegularFile(release) && Files.readString(release).contains("JAVA_VERSION=\"25")) {
                    return h;
                }
            }
        }
        throw new IllegalStateException("no JDK 25 under /usr/lib/jvm");
    }

    /**
     * A new folder for one run under {@code target/agent-runs}, kept after the test: its stdout,
     * stderr, HOME and trace are what one reads when an agent misbehaves.
     */
    public static Path newRunFolder(String name) throws IOException {
        Path runs = Path.of("target/agent-runs").toAbsolutePath();
        if (!runs.toString().matches("[A-Za-z0-9_./-]+")) {
            // a checkout in a path with a space: the agents quote such paths in the shell lines they run, so their
            // recorded forms would depend on where the checkout is; their runs go to the temporary folder instead
            runs = Path.of(System.getProperty("java.io.tmpdir"), "shellgate-agent-runs").toAbsolutePath();
        }
        return Files.createTempDirectory(Files.createDirectories(runs), name + "-");
    }

    public static AgentResult run(AgentRun run, Path root) throws IOException, InterruptedException {
        Path install = AgentInstall.get();
        Path home = Files.createDirectories(root.resolve("home"));
        Path work = Files.createDirectories(root.resolve("work"));
        AgentSetup setup = run.agent().setup;
        try (StubModel stub = setup.stub(run); Tripwire tripwire = new Tripwire()) {
            setup.configure(home, stub, run);
            List<String> argv = run.prefixed(setup.argv(install, run));
            Path trace = root.resolve("trace/execve");
            if (run.traced()) {
                Files.createDirectories(trace.getParent());
                List<String> strace = new ArrayList<>(List.of("strace"));
                strace.addAll(StraceLog.OPTIONS);
                strace.addAll(List.of("-o", trace.toString()));
                strace.addAll(argv);
                argv = strace;
            }
            ProcessBuilder pb = new ProcessBuilder(argv).directory(work.toFile())
                    .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
                    .redirectOutput(root.resolve("stdout.txt").toFile()).redirectError(root.resolve("stderr.txt").toFile());
            pb.environment().clear();
            pb.environment().putAll(environment(home, tripwire, setup.env(stub), run.env()));
            long start = System.nanoTime();
            Process process = pb.start();
            boolean timedOut;
            try {
                timedOut = !awaitTree(process, run.timeout());
            } finally {
                stopServer(root);
            }
            Duration elapsed = Duration.ofNanos(System.nanoTime() - start);
            return new AgentResult(run.agent(), timedOut ? -1 : process.exitValue(), timedOut,
                    Files.readString(root.resolve("stdout.txt")), Files.readString(root.resolve("stderr.txt")),
                    stub.requests(), stub.toolResults(), tripwire.seen(), run.traced() ? StraceLog.read(trace) : List.of(),
                    run.traced() ? StraceLog.connections(trace) : List.of(), home, work, elapsed);
        }
    }

    /**
     * Ends the judge server a run started (its hook or wrap starts one under {@code root/run}, which
     * outlives the agent until it idles out), so that runs do not pile up servers.
     */
    public static void stopServer(Path root) {
        Path pidFile = root.resolve("run/server.pid");
        try {
            if (Files.isRegularFile(pidFile)) {
                ProcessHandle.of(Long.parseLong(Files.readString(pidFile).strip()))
                        .filter(h -> h.info().commandLine().map(c -> c.contains("shellgate")).orElse(false))
                        .ifPresent(h -> {
                            h.destroy();
                            h.onExit().completeOnTimeout(h, 30, java.util.concurrent.TimeUnit.SECONDS).join();
                        });
            }
            // a server the agent's end killed (it is in the agent's process tree) could not remove the
            // directory it keeps its socket in when the run directory is too deep for one
            Path pointer = root.resolve("run/server.sockpath");
            if (Files.isRegularFile(pointer)) {
                Path socket = Path.of(Files.readString(pointer).strip());
                if (socket.getParent() != null && socket.getParent().getFileName().toString().startsWith("sg-")) {
                    Files.deleteIfExists(socket);
                    Files.deleteIfExists(socket.getParent());
                }
            }
        } catch (IOException | NumberFormatException e) {
            // no server, or it is gone already
        }
    }

    /**
     * The whole environment of the agent: nothing of the test JVM's own, so no proxy, key or
     * setting of the machine leaks in. A null value in {@code extra} removes a variable.
     */
    static Map<String, String> environment(Path home, Tripwire tripwire, Map<String, String> agent, Map<String, String> extra) {
        Map<String, String> env = new HashMap<>();
        String node = AgentInstall.onPath("node").map(p -> p.getParent().toString()).orElse("/usr/bin");
        env.put("PATH", node.equals("/usr/bin") ? "/usr/bin:/bin" : node + ":/usr/bin:/bin");
        env.put("HOME", home.toString());
        String user = System.getProperty("user.name");
        env.put("USER", user);
        env.put("LOGNAME", user);
        env.put("LANG", "C.UTF-8");
        env.put("TERM", "dumb");
        env.put("SHELL", "/bin/bash");
        for (String name : List.of("HTTPS_PROXY", "HTTP_PROXY", "ALL_PROXY", "https_proxy", "http_proxy", "all_proxy")) {
            env.put(name, tripwire.url());
        }
        env.put("NO_PROXY", "127.0.0.1,localhost");
        env.put("no_proxy", "127.0.0.1,localhost");
        env.putAll(agent);
        extra.forEach((name, value) -> {
            if (value == null) {
                env.remove(name);
            } else {
                env.put(name, value);
            }
        });
        return env;
    }

    /**
     * Waits for the agent to exit, then ends whatever it left running (a shell it moved to the
     * background, a helper that outlives it): descendants are collected while the agent runs, since
     * they are no longer its descendants once it is gone. Returns false when the time ran out.
     */
    private static boolean awaitTree(Process process, Duration limit) throws InterruptedException {
        Set<ProcessHandle> tree = new LinkedHashSet<>();
        long deadline = System.nanoTime() + limit.toNanos();
        boolean exited = false;
        while (System.nanoTime() < deadline) {
            process.descendants().forEach(tree::add);
            if (process.waitFor(Duration.ofMillis(200))) {
                exited = true;
                break;
            }
        }
        if (!exited) {
            process.descendants().forEach(tree::add);
            process.destroyForcibly();
        }
        tree.stream().filter(ProcessHandle::isAlive).forEach(ProcessHandle::destroyForcibly);
        process.waitFor();
        return exited;
    }
}
