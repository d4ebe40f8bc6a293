package io.shellgate.it;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Assumptions;

/** Runs built artifacts as separate processes and collects what they print. */
final class Processes {

    /** What a process printed, byte for byte, and how it ended. */
    record Result(int code, byte[] outBytes, byte[] errBytes) {
        String out() {
            return new String(outBytes, StandardCharsets.UTF_8);
        }

        String err() {
            return new String(errBytes, StandardCharsets.UTF_8);
        }

        @Override
        public String toString() {
            return "exit " + code + "\n--- stdout\n" + out() + "--- stderr\n" + err();
        }
    }

    private Processes() {}

    static Path launcher() {
        String path = System.getProperty("shellgate.launcher");
        if (path == null) {
            throw new IllegalStateException("run through Maven: the system property shellgate.launcher names the built launcher");
        }
        return Path.of(path).toAbsolutePath().normalize();
    }

    /**
     * shellgate-hook beside the built launcher (the hook relay without bash). The build makes it
     * where a C compiler is found on Linux; without it a test that needs it is skipped with the
     * reason, and on CI (whose .ci/run installs gcc) fails instead.
     */
    static Path hookClient() {
        Path client = launcher().resolveSibling("shellgate-hook");
        if (!Files.isExecutable(client)) {
            String why = "the build made no " + client + " (no C compiler on this machine: see launcher/src/main/c/build)";
            if ("true".equals(System.getenv("CI"))) {
                Assertions.fail(why);
            }
            Assumptions.assumeTrue(false, why);
        }
        return client;
    }

    static Result run(List<String> command, Map<String, String> env, String stdin, Path cwd) throws IOException, InterruptedException {
        return run(command, env, stdin == null ? null : stdin.getBytes(StandardCharsets.UTF_8), cwd);
    }

    static Result run(List<String> command, Map<String, String> env, byte[] stdin, Path cwd) throws IOException, InterruptedException {
        Process p = start(command, env, cwd);
        // threads of their own: the common pool has one thread on a two-core machine, and a caller
        // that waits on another process there would starve these readers
        CompletableFuture<byte[]> out = CompletableFuture.supplyAsync(() -> read(p.getInputStream()), Processes::thread);
        CompletableFuture<byte[]> err = CompletableFuture.supplyAsync(() -> read(p.getErrorStream()), Processes::thread);
        try {
            if (stdin != null) {
                p.getOutputStream().write(stdin);
            }
            p.getOutputStream().close();
        } catch (IOException e) {
            // the process did not read all of its input: what it printed and its exit code still count
        }
        if (!p.waitFor(120, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new IllegalStateException("timed out: " + command);
        }
        return new Result(p.exitValue(), out.join(), err.join());
    }

    /** Runs a task on a daemon thread of its own. */
    static void thread(Runnable task) {
        Thread.ofPlatform().daemon().start(task);
    }

    static Process start(List<String> command, Map<String, String> env, Path cwd) throws IOException {
        ProcessBuilder pb = new ProcessBuilder(command);
        if (env != null) {
            pb.environment().clear();
            pb.environment().putAll(env);
        }
        if (cwd != null) {
            pb.directory(cwd.toFile());
        }
        return pb.start();
    }

    private static byte[] read(InputStream in) {
        try {
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
