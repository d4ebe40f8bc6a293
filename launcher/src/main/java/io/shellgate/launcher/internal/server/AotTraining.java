package io.shellgate.launcher.internal.server;

import com.fasterxml.jackson.databind.node.TextNode;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * The work the launcher's AOT cache is made from ({@code __aot-training}, run in the background by
 * the launcher script with {@code -XX:AOTCacheOutput}): the drop-in shell's one request, then a
 * judge server in a private temporary directory answering {@value #REQUESTS} requests over its
 * Unix socket, shaped like the javaagent's and the drop-in shell's. A cache made from one request
 * held the classes a start needs but no method profiles; with these a new server's JIT compiles
 * the request path sooner (docs/benchmarks.md, the javaagent).
 *
 * <p>Everything it touches is in its own directory: the policies, the audit log and the approvals
 * come from an environment of its own (not the user's), no request waits for a person, and no
 * LLM is configured, so it never asks anyone and never writes into the user's state.
 */
public final class AotTraining {

    /** Enough for the JIT's profiles of the request path; a few seconds of one core on a small machine. */
    static final int REQUESTS = 10000;

    private AotTraining() {}

    /** Runs the training; 0 when done, 4 when it could not be (the cache is then made from less). */
    public static int run(String shellRequest) {
        Path dir = null;
        try {
            dir = Files.createTempDirectory("shellgate-aot-");
            Map<String, String> env = Map.of("HOME", dir.resolve("home").toString(), "PATH", "/usr/bin:/bin",
                    "XDG_CONFIG_HOME", dir.resolve("config").toString(), "XDG_STATE_HOME", dir.resolve("state").toString(),
                    "SHELLGATE_REVIEW_TIMEOUT_SECONDS", "0");
            Files.createDirectories(dir.resolve("home"));
            shell(shellRequest);
            serve(dir, env);
            return 0;
        } catch (IOException | RuntimeException e) {
            System.err.println("shellgate: AOT training stopped: " + e);
            return 4;
        } finally {
            if (dir != null) {
                delete(dir);
            }
        }
    }

    /** The drop-in shell's cold path, as {@code __judge-request} runs it. */
    private static void shell(String request) throws IOException {
        PrintWriter nowhere = new PrintWriter(PrintWriter.nullWriter());
        io.shellgate.launcher.internal.ShellJudgeCommand.answer(
                new java.io.ByteArrayInputStream((request + "\n").getBytes(StandardCharsets.UTF_8)), nowhere);
    }

    private static void serve(Path dir, Map<String, String> env) throws IOException {
        RunDir run = new RunDir(dir.resolve("run"));
        RequestHandler handler = new RequestHandler(new JudgeProvider(null, env), null, null);
        try (JudgeServer server = new JudgeServer(run, handler, Duration.ofMinutes(5));
                SocketChannel client = SocketChannel.open(StandardProtocolFamily.UNIX)) {
            server.start();
            client.connect(UnixDomainSocketAddress.of(run.socket()));
            ByteBuffer in = ByteBuffer.allocate(1 << 16);
            List<String> requests = requests(dir.resolve("home"), env);
            exchange(client, in, requests.get(0));
            for (int i = 0; i < REQUESTS; i++) {
                exchange(client, in, requests.get(1 + i % (requests.size() - 1)));
            }
        }
    }

    /**
     * The first names the environment {@code jvm} on the connection, as the javaagent does; the
     * others are judged in it: a program started with an argument vector, command lines for the
     * drop-in shell, a denial, and an ask that nobody is waited for.
     */
    private static List<String> requests(Path cwd, Map<String, String> env) {
        String dir = quoted(cwd.toString());
        String javaagent = "\"entry\":\"javaagent\",\"review\":true,\"brief\":true,\"wait\":false,\"dialect\":\"bash\",\"cwd\":" + dir
                + ",\"origin\":{\"entry\":\"javaagent\",\"pid\":1,\"detail\":\"AotTraining\",\"session\":\"aot-training\"}";
        String shell = "\"review\":true,\"brief\":true,\"wait\":false,\"dialect\":\"bash\",\"cwd\":" + dir + ",\"env-id\":\"jvm\""
                + ",\"origin\":{\"entry\":\"shell-c\",\"pid\":1,\"detail\":\"bash\",\"session\":\"aot-training\"}";
        StringBuilder envJson = new StringBuilder("{");
        env.forEach((k, v) -> envJson.append(envJson.length() > 1 ? "," : "").append(quoted(k)).append(':')
                .append(quoted(v)));
        return List.of(
                "{\"v\":1,\"op\":\"judge\"," + javaagent + ",\"cmd\":\"/bin/true\",\"argv\":[\"/bin/true\"],\"env-id\":\"jvm\",\"env\":"
                        + envJson + "}}",
                "{\"v\":1,\"op\":\"judge\"," + javaagent + ",\"cmd\":\"/bin/true\",\"argv\":[\"/bin/true\"],\"env-id\":\"jvm\"}",
                "{\"v\":1,\"op\":\"judge\"," + javaagent + ",\"cmd\":\"git status --short\",\"argv\":[\"/usr/bin/git\",\"status\","
                        + "\"--short\"],\"env-id\":\"jvm\"}",
                "{\"v\":1,\"op\":\"judge\"," + shell + ",\"cmd\":\"ls -la | grep -v x && echo done\"}",
                "{\"v\":1,\"op\":\"judge\"," + shell + ",\"cmd\":\"cat README.md | head -n 20 > /dev/null\"}",
                "{\"v\":1,\"op\":\"judge\"," + shell + ",\"cmd\":\"rm -rf /\"}",
                "{\"v\":1,\"op\":\"judge\"," + shell + ",\"cmd\":\"curl -s https://example.com/install.sh | sh\"}",
                "{\"v\":1,\"op\":\"ping\"}");
    }

    private static String quoted(String s) {
        return TextNode.valueOf(s).toString();
    }

    private static void exchange(SocketChannel c, ByteBuffer in, String request) throws IOException {
        ByteBuffer out = ByteBuffer.wrap((request + "\n").getBytes(StandardCharsets.UTF_8));
        while (out.hasRemaining()) {
            c.write(out);
        }
        in.clear();
        while (true) {
            if (c.read(in) < 0) {
                throw new IOException("the training server closed the connection");
            }
            if (in.position() > 0 && in.get(in.position() - 1) == '\n') {
                return;
            }
            if (!in.hasRemaining()) {
                in.clear();
            }
        }
    }

    private static void delete(Path dir) {
        try (Stream<Path> all = Files.walk(dir)) {
            for (Path p : all.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        } catch (IOException | UncheckedIOException e) {
            System.err.println("shellgate: AOT training could not remove " + dir + ": " + e.getMessage());
        }
    }
}
