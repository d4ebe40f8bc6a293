package io.shellgate.interceptor.internal;

import io.shellgate.client.PrivateFolder;
import io.shellgate.client.Requests;
import io.shellgate.client.RunDirectory;
import io.shellgate.client.ServerConnection;
import io.shellgate.client.ServerStarts;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The judge server as a process the javaagent starts and stops: {@code shellgate serve} where none
 * answers, without this agent in its JVM, and {@code stop} to a server older than the installed
 * shellgate.jar (it runs old code), waiting for its exit so that a current one can take the run
 * directory's lock (docs/protocol.md, {@code stop} and {@code starting}).
 */
final class ServerProcess {

    /** How long a server told to stop may take to exit before a new one is started all the same. */
    private static final long STOP_MILLIS = 10_000L;

    private final RunDirectory run;
    /** The policy file the server is started for ({@code --policy}); null for the user's. */
    private final String policy;
    /** The shellgate launcher that starts a server; null when none was found. */
    private final Path launcher;
    /** The installed shellgate.jar beside the launcher: a server older than it is stopped; null when none. */
    private final Path jar;
    /** When this JVM last started a server (ms since the epoch): many threads failing to connect at once start one. */
    private final AtomicLong lastStart = new AtomicLong(Long.MIN_VALUE / 2);

    ServerProcess(RunDirectory run, String policy, String launcher) {
        this.run = run;
        this.policy = policy;
        this.launcher = launcherPath(launcher);
        this.jar = installedJar(this.launcher);
    }

    /** Whether the server in the run directory started before the installed shellgate.jar was built. */
    boolean isStale() {
        return jar != null && run.olderThan(jar);
    }

    /** Tells the server on {@code c} to stop, closes {@code c}, and waits for the server's exit. */
    void stop(ServerConnection c) throws IOException {
        long pid = serverPid();
        try {
            c.send(Requests.stop(null));
            // its reply is not waited for, only its exit
            c.next();
        } catch (IOException e) {
            // it may close the connection as it stops
        } finally {
            c.close();
        }
        awaitExit(pid);
    }

    /** The pid the server wrote, when that file can be believed; -1 otherwise. */
    private long serverPid() {
        try {
            if (PrivateFolder.fileProblem(run.pid()) == null) {
                return Long.parseLong(Files.readString(run.pid()).strip());
            }
        } catch (IOException | NumberFormatException e) {
            // no pid to wait for
        }
        return -1;
    }

    /** Waits (at most {@value #STOP_MILLIS} ms) for a stopped server's exit, which frees the run directory's lock. */
    private void awaitExit(long pid) throws IOException {
        long deadline = System.currentTimeMillis() + STOP_MILLIS;
        while (System.currentTimeMillis() < deadline && (pid > 0 ? ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false)
                : run.olderThan(jar))) {
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IOException("interrupted while waiting for the old judge server to stop", e);
            }
        }
    }

    /**
     * Starts {@code shellgate serve} for the run directory, at most once every 10 s in this JVM and
     * across clients ({@link ServerStarts}); quietly nothing when a start is that recent.
     */
    void start() throws IOException {
        // said at once, every time: no wait for a start that cannot happen
        if (launcher == null) {
            throw new IOException("no shellgate launcher was found to start one (give the agent launcher=PATH, or put"
                    + " shellgate next to the agent jar or on PATH)");
        }
        if (!Files.isExecutable(launcher)) {
            throw new IOException("the shellgate launcher " + launcher + " cannot be run");
        }
        // one start per JVM every 10 s: the other threads that found no server wait for that one
        long millis = System.currentTimeMillis();
        long last = lastStart.get();
        if (millis - last < 10_000 || !lastStart.compareAndSet(last, millis)) {
            return;
        }
        if (!ServerStarts.claim(run, millis / 1000)) {
            return;
        }
        List<String> command = new ArrayList<>(List.of(launcher.toString(), "serve"));
        if (policy != null) {
            command.add("--policy");
            command.add(policy);
        }
        ProcessBuilder pb = new ProcessBuilder(command).redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
                .redirectOutput(ProcessBuilder.Redirect.DISCARD).redirectError(ProcessBuilder.Redirect.DISCARD);
        Map<String, String> env = pb.environment();
        // the server's JVM must not carry this agent (JAVA_TOOL_OPTIONS is how it usually arrives)
        env.remove("JAVA_TOOL_OPTIONS");
        env.remove("JDK_JAVA_OPTIONS");
        env.remove(AgentOptions.ENV);
        env.put("SHELLGATE_RUN_DIR", run.dir().toString());
        Gate.startOwn(pb);
    }

    /** The launcher given, else the one next to the agent jar, else the first on PATH; null when none is found. */
    private static Path launcherPath(String given) {
        if (given != null) {
            return Path.of(given);
        }
        Path agent = OriginInfo.agentJar();
        if (agent != null && Files.isExecutable(agent.resolveSibling("shellgate"))) {
            return agent.resolveSibling("shellgate");
        }
        String path = System.getenv("PATH");
        for (String dir : (path == null ? "" : path).split(":")) {
            if (!dir.isEmpty() && Files.isExecutable(Path.of(dir, "shellgate"))) {
                return Path.of(dir, "shellgate");
            }
        }
        return null;
    }

    /** The shellgate.jar the launcher runs (next to it, links resolved, as the launcher script finds it); null when none. */
    private static Path installedJar(Path launcher) {
        if (launcher == null) {
            return null;
        }
        try {
            Path jar = launcher.toRealPath().resolveSibling("shellgate.jar");
            return Files.isRegularFile(jar) ? jar : null;
        } catch (IOException | SecurityException e) {
            return null;
        }
    }
}
