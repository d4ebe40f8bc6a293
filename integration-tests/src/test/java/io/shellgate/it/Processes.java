package io.shellgate.it;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/** Runs built artifacts as separate processes and collects what they print. */
final class Processes {

    record Result(int code, String out, String err) {}

    private Processes() {}

    static Path launcher() {
        String path = System.getProperty("shellgate.launcher");
        if (path == null) {
            throw new IllegalStateException("run through Maven: the system property shellgate.launcher names the built launcher");
        }
        return Path.of(path).toAbsolutePath().normalize();
    }

    static Result run(List<String> command, Map<String, String> env, String stdin, Path cwd) throws IOException, InterruptedException {
        ProcessBuilder pb = new ProcessBuilder(command);
        if (env != null) {
            pb.environment().clear();
            pb.environment().putAll(env);
        }
        if (cwd != null) {
            pb.directory(cwd.toFile());
        }
        Process p = pb.start();
        CompletableFuture<byte[]> out = CompletableFuture.supplyAsync(() -> read(p.getInputStream()));
        CompletableFuture<byte[]> err = CompletableFuture.supplyAsync(() -> read(p.getErrorStream()));
        if (stdin != null) {
            p.getOutputStream().write(stdin.getBytes(StandardCharsets.UTF_8));
        }
        p.getOutputStream().close();
        if (!p.waitFor(120, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new IllegalStateException("timed out: " + command);
        }
        return new Result(p.exitValue(), new String(out.join(), StandardCharsets.UTF_8), new String(err.join(), StandardCharsets.UTF_8));
    }

    private static byte[] read(java.io.InputStream in) {
        try {
            return in.readAllBytes();
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
