package io.shellgate.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** The client against a real loopback TCP listener that publishes a run directory as the server does. */
class ServerConnectionTest {

    private static final String TOKEN = "1".repeat(64);
    private static final String PROOF = "2".repeat(64);

    @TempDir
    Path dir;

    private final BlockingQueue<String> requests = new LinkedBlockingQueue<>();

    /** Publishes the port, token and proof (0600, in a 0700 directory) and answers each line with {@code answer}'s lines. */
    private RunDirectory serve(Function<String, List<String>> answer) throws IOException {
        ServerSocket listener = new ServerSocket(0, 4, InetAddress.getLoopbackAddress());
        Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwx------"));
        for (String[] f : new String[][] {{"server.port", listener.getLocalPort() + "\n"}, {"server.token", TOKEN + "\n"},
                {"server.proof", PROOF + "\n"}}) {
            Files.writeString(dir.resolve(f[0]), f[1]);
            Files.setPosixFilePermissions(dir.resolve(f[0]), PosixFilePermissions.fromString("rw-------"));
        }
        Thread t = new Thread(() -> {
            try (listener; Socket s = listener.accept()) {
                BufferedReader in = new BufferedReader(new InputStreamReader(s.getInputStream(), StandardCharsets.UTF_8));
                OutputStream out = s.getOutputStream();
                for (String line = in.readLine(); line != null; line = in.readLine()) {
                    requests.add(line);
                    for (String reply : answer.apply(line)) {
                        if (reply.startsWith("sleep ")) {
                            Thread.sleep(Long.parseLong(reply.substring(6)));
                        } else {
                            out.write((reply + "\n").getBytes(StandardCharsets.UTF_8));
                            out.flush();
                        }
                    }
                }
            } catch (IOException | InterruptedException e) {
                // the client went away
            }
        });
        t.setDaemon(true);
        t.start();
        return new RunDirectory(dir);
    }

    @Test
    @Timeout(30)
    void sendsTheTokenAndBelievesOnlyRepliesWithTheProof() throws Exception {
        RunDirectory run = serve(line -> List.of("{\"v\":1,\"pong\":true,\"pid\":7,\"proof\":\"" + PROOF + "\"}",
                "{\"v\":1,\"pong\":true,\"pid\":8}"));
        try (ServerConnection c = ServerConnection.tcp(run)) {
            assertThat(c.exchange(Requests.ping(c.token()), 10_000)).isEqualTo(new Reply.Pong(7));
            assertThat(requests.take()).isEqualTo("{\"v\":1,\"op\":\"ping\",\"token\":\"" + TOKEN + "\"}");
            // the line after: a listener that knows the token but not the proof
            assertThat(c.next()).isInstanceOf(Reply.NoAnswer.class);
        }
    }

    @Test
    @Timeout(30)
    void anInterimLineExtendsTheWaitAndSilenceEndsIt() throws Exception {
        RunDirectory run = serve(line -> line.contains("\"op\":\"ping\"")
                ? List.of("{\"v\":1,\"pending\":\"llm\",\"seconds\":5,\"proof\":\"" + PROOF + "\"}", "sleep 1500",
                        "{\"v\":1,\"pong\":true,\"pid\":7,\"proof\":\"" + PROOF + "\"}")
                : List.of());
        try (ServerConnection c = ServerConnection.tcp(run)) {
            assertThat(c.exchange(Requests.ping(c.token()), 1000)).isEqualTo(new Reply.Pong(7));
            assertThatThrownBy(() -> c.exchange(Requests.stop(c.token()), 1000)).isInstanceOf(IOException.class)
                    .hasMessage("the judge server did not answer in 1 s");
        }
    }

    @Test
    void aRunDirectoryOthersMayWriteIsNotBelieved() throws Exception {
        RunDirectory run = serve(line -> List.of());
        Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxrwxrwx"));
        assertThatThrownBy(() -> ServerConnection.tcp(run)).isInstanceOf(ServerConnection.Untrusted.class)
                .hasMessageContaining("is writable by other users");
    }
}
