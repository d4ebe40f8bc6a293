package io.shellgate.launcher.internal.server;

import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;

/**
 * {@code shellgate check --batch} through a judge server of this user, when one runs: the lines go
 * to it and its answers, byte for byte those this JVM would print, come back in order, so the
 * batch pays neither for building a judge nor for its warm-up. Only JDK classes, so that a start
 * that relays loads little. Empty when it does not apply (other options, no server, a server older
 * than this jar, one that refuses): the batch is then judged in this JVM, its input untouched.
 */
public final class BatchRelay {

    /** A stopped or stuck server still accepts connections: its silence is not waited out. */
    private static final long START_MILLIS = 5_000;

    private BatchRelay() {}

    /**
     * A command line {@code check --batch} with no option but {@code --cwd} and {@code --dialect}:
     * the batch's directory (an existing one) and dialect (as given).
     */
    public record Simple(Path cwd, String dialect) {

        /** Empty for any other command line, which only the command line's own parser may read. */
        public static Optional<Simple> of(String[] args) {
            if (args.length < 2 || !args[0].equals("check")) {
                return Optional.empty();
            }
            String cwd = "";
            String dialect = "bash";
            boolean batch = false;
            for (int i = 1; i < args.length; i++) {
                String a = args[i];
                if (a.equals("--batch")) {
                    batch = true;
                } else if (a.equals("--cwd") && i + 1 < args.length) {
                    cwd = args[++i];
                } else if (a.equals("--dialect") && i + 1 < args.length) {
                    dialect = args[++i];
                } else if (a.startsWith("--cwd=")) {
                    cwd = a.substring(6);
                } else if (a.startsWith("--dialect=")) {
                    dialect = a.substring(10);
                } else {
                    // --policy, --json, --help, a command
                    return Optional.empty();
                }
            }
            try {
                Path dir = Path.of(cwd).toAbsolutePath().normalize();
                return batch && Files.isDirectory(dir) ? Optional.of(new Simple(dir, dialect)) : Optional.empty();
            } catch (java.nio.file.InvalidPathException e) {
                return Optional.empty();
            }
        }
    }

    /** The exit code of the batch relayed to a server that runs, or empty when this JVM must judge it. */
    public static Optional<Integer> relay(Simple batch, Map<String, String> env, InputStream stdin) {
        if (env.containsKey("SHELLGATE_NO_SERVER")) {
            return Optional.empty();
        }
        RunDir run = RunDir.of(env);
        if (run.problem() != null || olderThanJar(run)) {
            return Optional.empty();
        }
        return relay(run, batch.cwd(), batch.dialect(), env, stdin, new FileOutputStream(FileDescriptor.out));
    }

    /** The batch relayed to the server of {@code run}; empty when it does not take it. */
    public static Optional<Integer> relay(RunDir run, Path cwd, String dialect, Map<String, String> env, InputStream stdin,
            OutputStream stdout) {
        SocketChannel channel;
        try {
            channel = SocketChannel.open(StandardProtocolFamily.UNIX);
        } catch (IOException e) {
            return Optional.empty();
        }
        try {
            if (!started(channel, run, header(cwd, dialect, env))) {
                channel.close();
                return Optional.empty();
            }
        } catch (IOException e) {
            closeQuietly(channel);
            return Optional.empty();
        }
        return Optional.of(stream(channel, stdin, stdout));
    }

    /**
     * A server started before this jar was installed judges with older code: its answers might
     * not be this JVM's. Told by its {@code server.port}, written when it started.
     */
    private static boolean olderThanJar(RunDir run) {
        String cp = System.getProperty("java.class.path", "");
        if (!cp.endsWith(".jar") || cp.contains(java.io.File.pathSeparator)) {
            return false;
        }
        try {
            return Files.getLastModifiedTime(run.port()).compareTo(Files.getLastModifiedTime(Path.of(cp))) < 0;
        } catch (IOException e) {
            return true;
        }
    }

    /**
     * Sends the request and reads its reply within {@value #START_MILLIS} ms, or as long as an
     * interim line says the server needs to build its judge: whether the batch started.
     */
    private static boolean started(SocketChannel channel, RunDir run, String request) throws IOException {
        java.util.concurrent.atomic.AtomicLong deadline = new java.util.concurrent.atomic.AtomicLong(System.nanoTime() + START_MILLIS * 1_000_000);
        Thread closer = Thread.ofPlatform().daemon().start(() -> {
            try {
                long left;
                while ((left = deadline.get() - System.nanoTime()) > 0) {
                    Thread.sleep(left / 1_000_000 + 1);
                }
                channel.close();
            } catch (InterruptedException | IOException e) {
                // answered in time, or already closed
            }
        });
        try {
            channel.connect(UnixDomainSocketAddress.of(run.socket()));
            write(channel, request.getBytes(StandardCharsets.UTF_8));
            // one byte at a time up to the newline: what follows the reply is already the batch's
            ByteBuffer one = ByteBuffer.allocate(1);
            StringBuilder reply = new StringBuilder();
            while (reply.length() < 4096) {
                one.clear();
                if (channel.read(one) < 0) {
                    return false;
                }
                char c = (char) one.get(0);
                if (c != '\n') {
                    reply.append(c);
                } else if (reply.toString().matches("\\{\"v\":1,\"pending\":\"judge\",\"seconds\":[0-9]{1,3}}")) {
                    int seconds = Integer.parseInt(reply.substring(reply.lastIndexOf(":") + 1, reply.length() - 1));
                    deadline.set(System.nanoTime() + (seconds + 5) * 1_000_000_000L);
                    reply.setLength(0);
                } else {
                    return reply.toString().equals("{\"v\":1,\"batch\":true}");
                }
            }
            return false;
        } finally {
            closer.interrupt();
        }
    }

    /** Standard input to the server, its answers to standard output; the exit code. */
    static int stream(SocketChannel channel, InputStream stdin, OutputStream stdout) {
        Thread sender = Thread.ofPlatform().daemon().name("shellgate-batch-send").start(() -> {
            byte[] buffer = new byte[64 * 1024];
            try {
                int n;
                while ((n = stdin.read(buffer)) > 0) {
                    write(channel, ByteBuffer.wrap(buffer, 0, n));
                }
                channel.shutdownOutput();
            } catch (IOException e) {
                if (channel.isOpen()) {
                    // standard input failed (the server going away closes the channel first): no line is left unsaid
                    System.err.println("shellgate check: cannot read standard input: " + e.getMessage());
                    closeQuietly(channel);
                }
            }
        });
        ByteBuffer in = ByteBuffer.allocate(64 * 1024);
        boolean lineStart = true;
        try {
            while (true) {
                in.clear();
                int n = channel.read(in);
                if (n < 0) {
                    break;
                }
                byte[] b = in.array();
                for (int i = 0; i < n; i++) {
                    // the end mark stands where a line would start; every answer starts with '{'
                    if (lineStart && b[i] == BatchRequests.END) {
                        stdout.write(b, 0, i);
                        stdout.flush();
                        return 0;
                    }
                    lineStart = b[i] == '\n';
                }
                stdout.write(b, 0, n);
                stdout.flush();
            }
        } catch (IOException e) {
            System.err.println("shellgate check: the judge server's connection failed: " + e.getMessage());
            return 4;
        } finally {
            sender.interrupt();
            closeQuietly(channel);
        }
        System.err.println("shellgate check: the judge server stopped before every line was answered; judge the rest with "
                + "SHELLGATE_NO_SERVER=1");
        return 4;
    }

    private static void write(SocketChannel channel, byte[] bytes) throws IOException {
        write(channel, ByteBuffer.wrap(bytes));
    }

    private static void write(SocketChannel channel, ByteBuffer b) throws IOException {
        while (b.hasRemaining()) {
            channel.write(b);
        }
    }

    /** The request line: what this JVM would judge the lines with. */
    static String header(Path cwd, String dialect, Map<String, String> env) {
        StringBuilder s = new StringBuilder("{\"v\":1,\"op\":\"batch\",\"interim\":true,\"cwd\":");
        quote(s, cwd.toString());
        s.append(",\"dialect\":");
        quote(s, dialect);
        s.append(",\"env\":{");
        boolean first = true;
        for (Map.Entry<String, String> e : env.entrySet()) {
            if (!first) {
                s.append(',');
            }
            first = false;
            quote(s, e.getKey());
            s.append(':');
            quote(s, e.getValue());
        }
        return s.append("}}\n").toString();
    }

    private static void quote(StringBuilder s, String text) {
        s.append('"');
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '"' || c == '\\') {
                s.append('\\').append(c);
            } else if (c < 0x20) {
                s.append(String.format("\\u%04x", (int) c));
            } else {
                s.append(c);
            }
        }
        s.append('"');
    }

    private static void closeQuietly(SocketChannel c) {
        try {
            c.close();
        } catch (IOException e) {
            // nothing to do
        }
    }
}
