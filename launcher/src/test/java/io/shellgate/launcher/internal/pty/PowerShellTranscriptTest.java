package io.shellgate.launcher.internal.pty;

import static org.assertj.core.api.Assertions.assertThat;

import io.shellgate.judge.Dialect;
import io.shellgate.reviewer.config.GateConfig;
import io.shellgate.reviewer.Gatekeeper;
import io.shellgate.reviewer.model.EntryPoint;
import io.shellgate.reviewer.model.Origin;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Replays what the PowerShell integration sends over its channel (see the transcript file, which
 * says how it was made) against the proxy with its real gate and judge, and the person's keys on
 * a pure-Java terminal.
 */
class PowerShellTranscriptTest {

    /** A thread per task: the common pool has a single thread on a two-core machine. */
    private static final java.util.concurrent.Executor OWN_THREAD = r -> Thread.ofPlatform().daemon().start(r);

    @Test
    void theProxyAnswersThePowerShellHookAsTheScriptExpects() throws Exception {
        FakeTerminals.User user = new FakeTerminals.User();
        FakeTerminals.Child child = new FakeTerminals.Child();
        TcpChannel channel = new TcpChannel();
        PtyProxy proxy = new PtyProxy(user, child);
        Gatekeeper judges = Gatekeeper.of(GateConfig.of(System.getenv(), null));
        CompletableFuture<Integer> run = CompletableFuture.supplyAsync(() -> {
            try {
                return proxy.run(List.of("pwsh"), Map.of(), Path.of("/"), channel,
                        (pid, person, voice) -> new LineGate(Dialect.POWERSHELL, judges, s -> false,
                                new Origin(EntryPoint.PTY, pid, "pwsh", "transcript"), person, voice, true), (s, w) -> null);
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        }, OWN_THREAD);
        child.spawned.await();
        CompletableFuture<String> pending = null;
        int screenFrom = 0;
        for (String line : transcript()) {
            if (line.isBlank() || line.startsWith("#")) {
                continue;
            }
            String arg = line.substring(line.indexOf(' ') + 1);
            switch (line.substring(0, line.indexOf(' '))) {
                case "send" -> {
                    String fields = arg.replace("<RS>", "\u001e").replace('|', '\0');
                    pending = CompletableFuture.supplyAsync(() -> send(channel, fields), OWN_THREAD);
                }
                case "reply" -> assertThat(pending.get(60, TimeUnit.SECONDS)).as(line).isEqualTo(arg);
                case "type" -> {
                    user.keys.write(arg.getBytes(StandardCharsets.UTF_8));
                    user.keys.flush();
                }
                case "screen" -> screenFrom = awaitScreen(user, arg, screenFrom);
                default -> throw new IllegalArgumentException("unknown transcript line: " + line);
            }
        }
        child.exit(0);
        assertThat(run.get(30, TimeUnit.SECONDS)).isZero();
    }

    private static int awaitScreen(FakeTerminals.User user, String text, int from) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (true) {
            String shown = new String(user.shown(), StandardCharsets.UTF_8);
            int at = shown.indexOf(text, from);
            if (at >= 0) {
                return at;
            }
            if (System.nanoTime() > deadline) {
                throw new AssertionError("the screen never showed \"" + text + "\"; it shows:\n" + shown);
            }
            Thread.sleep(20);
        }
    }

    private static String send(TcpChannel channel, String fields) {
        try (Socket s = new Socket(InetAddress.getLoopbackAddress(), channel.port())) {
            s.getOutputStream().write((channel.token() + "\0" + fields).getBytes(StandardCharsets.UTF_8));
            s.shutdownOutput();
            byte[] reply = s.getInputStream().readAllBytes();
            return new String(reply, StandardCharsets.UTF_8).strip();
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private static List<String> transcript() throws IOException {
        try (InputStream in = PowerShellTranscriptTest.class.getResourceAsStream("powershell-session.transcript")) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8).lines().toList();
        }
    }
}
