package io.shellgate.interceptor.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.shellgate.client.Json;
import io.shellgate.client.Reply;
import java.io.BufferedReader;
import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The client's rule: run on allow, or on ask when the review says run; never on deny; no review on an
 * ask is a refusal. The replies have the server's shape (Protocol.verdict and Protocol.decision).
 */
class ServerBackendTest {

    /** What the agent makes of a reply line on its Unix socket. */
    private static ProcessOutcome reply(String json) {
        return ProcessOutcome.of(Reply.parse(json));
    }

    @Test
    void runsOnAllow() {
        assertThat(reply("{\"v\":1,\"tier\":\"allow\",\"rule\":\"ls\",\"message\":\"lists\"}"))
                .isEqualTo(new ProcessOutcome(true, "allow", "ls", "lists"));
    }

    @Test
    void neverRunsOnDenyWhateverTheDecisionSays() {
        assertThat(reply("{\"v\":1,\"tier\":\"deny\",\"rule\":\"r\",\"message\":\"m\",\"run\":true,\"step\":\"person\",\"decided\":\"ok\"}"))
                .isEqualTo(new ProcessOutcome(false, "deny", "r", "m"));
    }

    @Test
    void anAskRunsOnlyWhenTheReviewSaysSo() {
        assertThat(reply("{\"v\":1,\"tier\":\"ask\",\"rule\":\"r\",\"message\":\"m\",\"run\":true,\"step\":\"person\",\"decided\":\"approved\"}"))
                .isEqualTo(new ProcessOutcome(true, "ask", "r", "approved"));
        assertThat(reply("{\"v\":1,\"tier\":\"ask\",\"rule\":\"r\",\"message\":\"m\",\"run\":false,\"step\":\"timeout\",\"decided\":\"nobody answered\"}"))
                .isEqualTo(new ProcessOutcome(false, "ask", "r", "nobody answered"));
        assertThat(reply("{\"v\":1,\"tier\":\"ask\",\"rule\":\"r\",\"message\":\"m\"}"))
                .isEqualTo(new ProcessOutcome(false, "ask", "r", "needed review (m), and no reviewer approved it"));
    }

    @Test
    void errorsAndRepliesWithoutATierAreRefusals() {
        assertThat(reply("{\"v\":1,\"error\":\"policy\",\"message\":\"/x/policy.toml:1:1: bad\"}"))
                .isEqualTo(ProcessOutcome.error("policy-error", "a policy file in effect is invalid: /x/policy.toml:1:1: bad"));
        assertThat(reply("{\"v\":1,\"error\":\"internal\",\"message\":\"bug\"}").runs()).isFalse();
        assertThat(reply("{\"v\":1,\"tier\":\"maybe\"}").runs()).isFalse();
    }

    @TempDir
    Path run;

    /**
     * A server on a real Unix socket in {@link #run} that reads request lines and answers each with
     * {@code answer} (given the request count, it writes what it likes, or nothing).
     */
    private void server(AtomicInteger requests, Answer answer) throws IOException {
        listen((c, line) -> answer.to(c, requests.incrementAndGet()));
    }

    /** What a test server does with one request line on connection {@code c}. */
    private interface LineHandler {
        void handle(SocketChannel c, String line) throws IOException, InterruptedException;
    }

    /** A server on a real Unix socket in {@link #run}, a thread per connection, that hands {@code handler} every line. */
    private void listen(LineHandler handler) throws IOException {
        ServerSocketChannel listener = ServerSocketChannel.open(StandardProtocolFamily.UNIX);
        listener.bind(UnixDomainSocketAddress.of(run.resolve("server.sock")));
        Thread t = new Thread(() -> {
            try (listener) {
                while (true) {
                    SocketChannel c = listener.accept();
                    Thread connection = new Thread(() -> {
                        try (c; BufferedReader in = new BufferedReader(Channels.newReader(c, StandardCharsets.UTF_8))) {
                            for (String line = in.readLine(); line != null; line = in.readLine()) {
                                handler.handle(c, line);
                            }
                        } catch (IOException | InterruptedException e) {
                            // the client went away
                        }
                    });
                    connection.setDaemon(true);
                    connection.start();
                }
            } catch (IOException e) {
                // the listener is gone with the test's directory
            }
        });
        t.setDaemon(true);
        t.start();
    }

    private interface Answer {
        void to(SocketChannel c, int request) throws IOException, InterruptedException;
    }

    private static ProcessOutcome ask(ServerBackend backend) throws Exception {
        return backend.decide(new JudgeLine("/bin/true", List.of("/bin/true")), System.getenv(), Path.of("/"));
    }

    @Test
    @Timeout(60)
    void aServerThatDoesNotAnswerInTimeIsARefusalAndIsNotAskedAgain() throws Exception {
        AtomicInteger requests = new AtomicInteger();
        server(requests, (c, n) -> {});
        ServerBackend backend = new ServerBackend(run, null, null, 1500);
        long start = System.nanoTime();
        assertThatThrownBy(() -> ask(backend)).isInstanceOf(IOException.class)
                .hasMessage("the judge server did not answer in 1500 ms");
        // the deadline is watched once a second: the refusal comes after it, and within two seconds of it
        assertThat((System.nanoTime() - start) / 1_000_000).isBetween(1500L, 3500L);
        assertThat(requests.get()).isEqualTo(1);
    }

    @Test
    @Timeout(60)
    void afterAnOverdueReplyTheNextRequestGoesOnAFreshConnection() throws Exception {
        AtomicInteger requests = new AtomicInteger();
        server(requests, (c, n) -> {
            if (n > 1) {
                c.write(ByteBuffer.wrap("{\"v\":1,\"tier\":\"allow\",\"rule\":\"r\",\"message\":\"m\"}\n"
                        .getBytes(StandardCharsets.UTF_8)));
            }
        });
        ServerBackend backend = new ServerBackend(run, null, null, 1000);
        assertThatThrownBy(() -> ask(backend)).hasMessage("the judge server did not answer in 1 s");
        assertThat(ask(backend)).isEqualTo(new ProcessOutcome(true, "allow", "r", "m"));
        assertThat(requests.get()).isEqualTo(2);
    }

    @Test
    @Timeout(60)
    void anInterimLineMakesTheStartWaitAsLongAsItSaysAndNoLonger() throws Exception {
        byte[] allow = "{\"v\":1,\"tier\":\"allow\",\"rule\":\"r\",\"message\":\"m\"}\n".getBytes(StandardCharsets.UTF_8);
        AtomicInteger requests = new AtomicInteger();
        server(requests, (c, n) -> {
            switch (n) {
                case 1 -> {
                    // a person is asked: the reply comes after the first-line wait, within the time announced
                    c.write(ByteBuffer.wrap("{\"v\":1,\"pending\":\"person\",\"seconds\":30}\n".getBytes(StandardCharsets.UTF_8)));
                    Thread.sleep(2500);
                    c.write(ByteBuffer.wrap(allow));
                }
                case 2 -> {
                    // two interim lines and the reply in one write
                    byte[] lines = ("{\"v\":1,\"pending\":\"llm\",\"seconds\":10}\n{\"v\":1,\"pending\":\"person\",\"seconds\":30}\n"
                            + new String(allow, StandardCharsets.UTF_8)).getBytes(StandardCharsets.UTF_8);
                    c.write(ByteBuffer.wrap(lines));
                }
                default -> c.write(ByteBuffer.wrap("{\"v\":1,\"pending\":\"llm\",\"seconds\":1}\n".getBytes(StandardCharsets.UTF_8)));
            }
        });
        ServerBackend backend = new ServerBackend(run, null, null, 1000);
        assertThat(ask(backend)).isEqualTo(new ProcessOutcome(true, "allow", "r", "m"));
        assertThat(ask(backend)).isEqualTo(new ProcessOutcome(true, "allow", "r", "m"));
        // the step announced ended and nothing followed: refused, as for a silent server
        assertThatThrownBy(() -> ask(backend)).isInstanceOf(IOException.class).hasMessage("the judge server did not answer in 1 s");
        assertThat(requests.get()).isEqualTo(3);
    }

    @Test
    @Timeout(60)
    void aReplyInPiecesIsReadWholeEvenWhenACharacterIsSplit() throws Exception {
        byte[] reply = "{\"v\":1,\"tier\":\"allow\",\"rule\":\"r\",\"message\":\"d\u00e9j\u00e0 vu\"}\n"
                .getBytes(StandardCharsets.UTF_8);
        int split = new String(reply, StandardCharsets.UTF_8).indexOf('\u00e9') + 1;
        AtomicInteger requests = new AtomicInteger();
        server(requests, (c, n) -> {
            c.write(ByteBuffer.wrap(reply, 0, split));
            Thread.sleep(200);
            c.write(ByteBuffer.wrap(reply, split, reply.length - split));
        });
        ServerBackend backend = new ServerBackend(run, null, null, 60_000);
        assertThat(ask(backend)).isEqualTo(new ProcessOutcome(true, "allow", "r", "d\u00e9j\u00e0 vu"));
        // the same connection serves the next request
        assertThat(ask(backend)).isEqualTo(new ProcessOutcome(true, "allow", "r", "d\u00e9j\u00e0 vu"));
        assertThat(requests.get()).isEqualTo(2);
    }

    @Test
    @Timeout(60)
    void aLongReplyOverManyReadsIsReadWhole() throws Exception {
        String message = "x".repeat(50_000);
        byte[] reply = ("{\"v\":1,\"tier\":\"deny\",\"rule\":\"r\",\"message\":\"" + message + "\"}\n")
                .getBytes(StandardCharsets.UTF_8);
        server(new AtomicInteger(), (c, n) -> {
            for (int i = 0; i < reply.length; i += 1000) {
                c.write(ByteBuffer.wrap(reply, i, Math.min(1000, reply.length - i)));
            }
        });
        assertThat(ask(new ServerBackend(run, null, null, 60_000))).isEqualTo(new ProcessOutcome(false, "deny", "r", message));
    }

    /**
     * A server on a real Unix socket in {@link #run} that keeps every line it gets in {@code lines}
     * and answers each with {@code answer}'s reply (none for null).
     */
    private void recordingServer(BlockingQueue<String> lines, java.util.function.Function<String, String> answer) throws IOException {
        listen((c, line) -> {
            lines.add(line);
            String reply = answer.apply(line);
            if (reply != null) {
                c.write(ByteBuffer.wrap((reply + "\n").getBytes(StandardCharsets.UTF_8)));
            }
        });
    }

    /** An allow whose reply offers reuse while {@code facts} (a JSON array of [op, path, answer]) hold; no reply to a ran notice. */
    private static java.util.function.Function<String, String> allowRechecking(String facts) {
        return line -> line.startsWith("{\"v\":1,\"op\":\"ran\"") ? null
                : "{\"v\":1,\"tier\":\"allow\",\"rule\":\"r\",\"message\":\"m\",\"shell\":\"\",\"dialect\":\"\",\"run\":true,"
                        + "\"step\":\"judge\",\"decided\":\"read-only\",\"recheck\":{\"token\":\"t7\",\"facts\":" + facts + "}}";
    }

    @Test
    @Timeout(60)
    void anAllowIsReusedWhileItsFactsHoldAndItsStartsAreSentToBeLogged() throws Exception {
        Path file = Files.writeString(run.resolve("fact"), "x");
        BlockingQueue<String> lines = new LinkedBlockingQueue<>();
        recordingServer(lines, allowRechecking("[[\"regular\",\"" + file + "\",\"true\"],[\"dir-perms\",\"/\",\""
                + PosixFilePermissions.toString(Files.getPosixFilePermissions(Path.of("/"))) + "\"]]"));
        ServerBackend backend = new ServerBackend(run, null, null, 60_000);
        long before = System.currentTimeMillis();
        for (int i = 0; i < 3; i++) {
            assertThat(ask(backend)).isEqualTo(new ProcessOutcome(true, "allow", "r", "m"));
        }
        long after = System.currentTimeMillis();
        String judge = lines.take();
        assertThat(judge).startsWith("{\"v\":1,\"op\":\"judge\",").contains("\"recheck\":true");
        // the two later starts were not asked about: they come in one notice, with their times
        String ran = lines.poll(10, TimeUnit.SECONDS);
        assertThat(ran).startsWith("{\"v\":1,\"op\":\"ran\",\"times\":[");
        List<?> times = (List<?>) Json.object(ran).get("times");
        assertThat(times).hasSize(2).allSatisfy(t -> assertThat((Long) t).isBetween(before, after));
        // then the allow's token, and the rest of the notice is the request itself
        assertThat(ran.substring(ran.indexOf("],") + 2)).isEqualTo("\"token\":\"t7\","
                + judge.substring("{\"v\":1,\"op\":\"judge\",".length()));
        // once the fact no longer holds, the server is asked again
        Files.delete(file);
        assertThat(ask(backend)).isEqualTo(new ProcessOutcome(true, "allow", "r", "m"));
        assertThat(lines.poll(10, TimeUnit.SECONDS)).startsWith("{\"v\":1,\"op\":\"judge\",");
        assertThat(lines.poll(500, TimeUnit.MILLISECONDS)).isNull();
    }

    @Test
    @Timeout(60)
    void anAllowRestingOnAQuestionTheClientDoesNotKnowIsNeverReused() throws Exception {
        BlockingQueue<String> lines = new LinkedBlockingQueue<>();
        recordingServer(lines, allowRechecking("[[\"regular\",\"/\",\"false\"],[\"moon-phase\",\"/\",\"full\"]]"));
        ServerBackend backend = new ServerBackend(run, null, null, 60_000);
        for (int i = 0; i < 3; i++) {
            assertThat(ask(backend)).isEqualTo(new ProcessOutcome(true, "allow", "r", "m"));
            assertThat(lines.take()).startsWith("{\"v\":1,\"op\":\"judge\",");
        }
        assertThat(lines.poll(500, TimeUnit.MILLISECONDS)).isNull();
    }

    @Test
    @Timeout(60)
    void anAskIsNeverReused() throws Exception {
        BlockingQueue<String> lines = new LinkedBlockingQueue<>();
        recordingServer(lines, line -> "{\"v\":1,\"tier\":\"ask\",\"rule\":\"r\",\"message\":\"m\",\"run\":true,"
                + "\"step\":\"memory\",\"decided\":\"approved\",\"recheck\":{\"token\":\"1\",\"facts\":[]}}");
        ServerBackend backend = new ServerBackend(run, null, null, 60_000);
        for (int i = 0; i < 2; i++) {
            assertThat(ask(backend)).isEqualTo(new ProcessOutcome(true, "ask", "r", "approved"));
            assertThat(lines.take()).startsWith("{\"v\":1,\"op\":\"judge\",");
        }
    }

    /**
     * A launcher in a directory of its own, beside a shellgate.jar built now: {@code serve} only
     * notes that it was asked (in {@code started} in the run directory), and the test plays the
     * server it would start.
     */
    private Path launcherBesideANewJar(Path dist) throws IOException {
        Files.createDirectories(dist);
        Path launcher = Files.writeString(dist.resolve("shellgate"), "#!/bin/sh\nprintf '%s\\n' \"$*\" > \"$SHELLGATE_RUN_DIR/started\"\n");
        Files.setPosixFilePermissions(launcher, PosixFilePermissions.fromString("rwx------"));
        Files.writeString(dist.resolve("shellgate.jar"), "a jar");
        return launcher;
    }

    private static final String ALLOW = "{\"v\":1,\"tier\":\"allow\",\"rule\":\"r\",\"message\":\"m\"}";

    @Test
    @Timeout(60)
    void aServerOlderThanTheInstalledJarIsStoppedAndACurrentOneStarted(@TempDir Path dist) throws Exception {
        Path launcher = launcherBesideANewJar(dist);
        // a server that started before the jar was built: its port file is older
        Files.writeString(run.resolve("server.port"), "1\n");
        Files.setLastModifiedTime(run.resolve("server.port"),
                FileTime.fromMillis(Files.getLastModifiedTime(dist.resolve("shellgate.jar")).toMillis() - 60_000));
        BlockingQueue<String> toOld = new LinkedBlockingQueue<>();
        ServerSocketChannel old = ServerSocketChannel.open(StandardProtocolFamily.UNIX);
        old.bind(UnixDomainSocketAddress.of(run.resolve("server.sock")));
        Thread oldServer = new Thread(() -> {
            try (SocketChannel c = old.accept(); BufferedReader in = new BufferedReader(Channels.newReader(c, StandardCharsets.UTF_8))) {
                String line = in.readLine();
                toOld.add(line);
                if (line.equals("{\"v\":1,\"op\":\"stop\"}")) {
                    // as the server stops: its files go, then it exits
                    Files.delete(run.resolve("server.port"));
                    Files.delete(run.resolve("server.sock"));
                    c.write(ByteBuffer.wrap("{\"v\":1,\"stopping\":true}\n".getBytes(StandardCharsets.UTF_8)));
                } else {
                    c.write(ByteBuffer.wrap((ALLOW + "\n").getBytes(StandardCharsets.UTF_8)));
                }
                old.close();
            } catch (IOException e) {
                // the test failed elsewhere
            }
        });
        oldServer.setDaemon(true);
        oldServer.start();
        // the server the launcher would start: up once it was asked to, with a new port file
        BlockingQueue<String> toNew = new LinkedBlockingQueue<>();
        Thread starter = new Thread(() -> {
            try {
                while (!Files.exists(run.resolve("started"))) {
                    Thread.sleep(20);
                }
                Files.writeString(run.resolve("server.port"), "2\n");
                recordingServer(toNew, line -> ALLOW);
            } catch (IOException | InterruptedException e) {
                // the test failed elsewhere
            }
        });
        starter.setDaemon(true);
        starter.start();
        ServerBackend backend = new ServerBackend(run, null, launcher.toString(), 60_000);
        assertThat(ask(backend)).isEqualTo(new ProcessOutcome(true, "allow", "r", "m"));
        assertThat(toOld).containsExactly("{\"v\":1,\"op\":\"stop\"}");
        assertThat(Files.readString(run.resolve("started"))).isEqualTo("serve\n");
        assertThat(toNew.take()).startsWith("{\"v\":1,\"op\":\"judge\",");
        // the current server is not stopped: the next request goes to it
        assertThat(ask(backend)).isEqualTo(new ProcessOutcome(true, "allow", "r", "m"));
        assertThat(toNew.take()).startsWith("{\"v\":1,\"op\":\"judge\",");
        assertThat(toOld).hasSize(1);
    }

    @Test
    @Timeout(60)
    void aServerStartedAfterTheJarWasBuiltIsNotStopped(@TempDir Path dist) throws Exception {
        Path launcher = launcherBesideANewJar(dist);
        Files.setLastModifiedTime(dist.resolve("shellgate.jar"), FileTime.fromMillis(System.currentTimeMillis() - 60_000));
        Files.writeString(run.resolve("server.port"), "1\n");
        BlockingQueue<String> lines = new LinkedBlockingQueue<>();
        recordingServer(lines, line -> ALLOW);
        ServerBackend backend = new ServerBackend(run, null, launcher.toString(), 60_000);
        assertThat(ask(backend)).isEqualTo(new ProcessOutcome(true, "allow", "r", "m"));
        assertThat(lines.take()).startsWith("{\"v\":1,\"op\":\"judge\",");
        assertThat(run.resolve("started")).doesNotExist();
    }
}
