package io.shellgate.launcher.internal.session;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

/**
 * One persistent real shell that runs the commands it is given, one at a time, in its own
 * process (so {@code cd}, variables and functions persist as in a plain session), and reports
 * after each its exit status, working directory and environment.
 *
 * <p>The shell reads, on a pipe of its own, the names of files that hold the commands, and sources
 * each; its standard input is {@code /dev/null} and its output goes straight to ours. After each
 * command it writes its state to a FIFO in a private directory.
 */
final class ShellSession implements AutoCloseable {

    private static final String LOOP = """
            exec 3<&0 0</dev/null
            __sg_rc=0
            while IFS= read -r __sg_f <&3; do
              (exit "$__sg_rc")
              . "$__sg_f"
              __sg_rc=$?
              { printf '%s\\n%s\\n' "$__sg_rc" "$PWD"; env -0 2>/dev/null || env; } > "$SG_STATE"
            done
            exit "$__sg_rc"
            """;

    /** After a command: its exit status, the directory and environment the shell is in. */
    record State(int status, Path cwd, Map<String, String> env) {}

    private final Process process;
    private final Path dir;
    private final Path fifo;
    private final OutputStream commands;
    private int next;
    private boolean closed;

    ShellSession(String shell, List<String> flags, Map<String, String> env, Path cwd) throws IOException, InterruptedException {
        dir = Files.createTempDirectory("shellgate-session-", PosixFilePermissions.asFileAttribute(
                PosixFilePermissions.fromString("rwx------")));
        fifo = dir.resolve("state");
        Process mk = new ProcessBuilder("mkfifo", "-m", "600", fifo.toString()).start();
        if (mk.waitFor() != 0) {
            throw new IOException("cannot create a FIFO with mkfifo in " + dir);
        }
        List<String> command = new ArrayList<>();
        command.add(shell);
        command.addAll(flags);
        command.add("-c");
        command.add(LOOP);
        ProcessBuilder pb = new ProcessBuilder(command).directory(cwd.toFile())
                .redirectOutput(ProcessBuilder.Redirect.INHERIT).redirectError(ProcessBuilder.Redirect.INHERIT);
        pb.environment().clear();
        pb.environment().putAll(env);
        pb.environment().put("SG_STATE", fifo.toString());
        process = pb.start();
        commands = process.getOutputStream();
    }

    /** Runs one command; returns its state, or null when the shell exited (its exit status is {@link #exitStatus()}). */
    State run(String command) throws IOException, InterruptedException {
        Path file = dir.resolve("cmd-" + next++);
        Files.writeString(file, command.endsWith("\n") ? command : command + "\n", StandardCharsets.UTF_8);
        // own threads, not the common pool: a reader blocked opening the FIFO must not starve the exit watcher
        CompletableFuture<byte[]> state = new CompletableFuture<>();
        Thread.ofPlatform().daemon().name("shellgate-session-state").start(() -> {
            try {
                state.complete(readState());
            } catch (RuntimeException e) {
                state.completeExceptionally(e);
            }
        });
        try {
            commands.write((file + "\n").getBytes(StandardCharsets.UTF_8));
            commands.flush();
        } catch (IOException e) {
            // the shell is gone
        }
        CompletableFuture<Object> either = new CompletableFuture<>();
        state.whenComplete((v, e) -> either.complete(v));
        Thread.ofPlatform().daemon().name("shellgate-session-exit").start(() -> {
            try {
                process.waitFor();
                either.complete(process);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        try {
            Object done = either.get();
            if (done instanceof byte[] bytes) {
                return parse(bytes);
            }
            // the shell exited before reporting: let the reader go
            unblock();
            return null;
        } catch (ExecutionException e) {
            throw new IOException("the session's shell did not report its state", e);
        } finally {
            Files.deleteIfExists(file);
        }
    }

    /** The state now, without running anything (an empty command). */
    State state() throws IOException, InterruptedException {
        return run(":");
    }

    int exitStatus() throws InterruptedException {
        return process.waitFor();
    }

    private byte[] readState() {
        try (InputStream in = Files.newInputStream(fifo)) {
            return in.readAllBytes();
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private void unblock() {
        try (OutputStream o = Files.newOutputStream(fifo)) {
            o.flush();
        } catch (IOException e) {
            // nobody was reading
        }
    }

    private static State parse(byte[] bytes) {
        String text = new String(bytes, StandardCharsets.UTF_8);
        int first = text.indexOf('\n');
        int second = first < 0 ? -1 : text.indexOf('\n', first + 1);
        if (second < 0) {
            return new State(0, null, Map.of());
        }
        String statusText = text.substring(0, first);
        int status = statusText.matches("\\d+") ? Integer.parseInt(statusText) : 0;
        Path cwd = Path.of(text.substring(first + 1, second));
        String rest = text.substring(second + 1);
        Map<String, String> env = new HashMap<>();
        if (rest.indexOf('\0') >= 0) {
            for (String kv : rest.split("\0")) {
                int eq = kv.indexOf('=');
                if (eq > 0) {
                    env.put(kv.substring(0, eq), kv.substring(eq + 1));
                }
            }
            return new State(status, cwd, env);
        }
        String[] lines = ("x\nx\n" + rest).split("\n", -1);
        String current = null;
        for (int i = 2; i < lines.length; i++) {
            String l = lines[i];
            int eq = l.indexOf('=');
            // env prints NAME=value; a value with newlines continues on the next lines
            if (eq > 0 && l.substring(0, eq).matches("[A-Za-z_][A-Za-z0-9_]*")) {
                current = l.substring(0, eq);
                env.put(current, l.substring(eq + 1));
            } else if (current != null && i < lines.length - 1) {
                env.put(current, env.get(current) + "\n" + l);
            }
        }
        return new State(status, cwd, env);
    }

    @Override
    public void close() throws IOException {
        if (closed) {
            return;
        }
        closed = true;
        try {
            commands.close();
        } catch (IOException e) {
            // already closed
        }
        try {
            if (!process.waitFor(5, TimeUnit.SECONDS)) {
                process.destroy();
            }
        } catch (InterruptedException e) {
            process.destroy();
            Thread.currentThread().interrupt();
        }
        try (var files = Files.list(dir)) {
            for (Path f : files.toList()) {
                Files.deleteIfExists(f);
            }
        }
        Files.deleteIfExists(dir);
    }
}
