package io.shellgate.launcher.internal.pty;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The loopback channel answers only messages that carry its secret token. */
class TcpChannelTest {

    /** A thread per task: the common pool has a single thread on a two-core machine. */
    private static final java.util.concurrent.Executor OWN_THREAD = r -> Thread.ofPlatform().daemon().start(r);

    @Test
    void dropsAMessageWithoutTheTokenAndAnswersOneWithIt() throws Exception {
        try (TcpChannel channel = new TcpChannel()) {
            CompletableFuture<HookChannel.Exchange> next = CompletableFuture.supplyAsync(() -> {
                try {
                    return channel.next();
                } catch (java.io.IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
            }, OWN_THREAD);
            assertThat(send(channel.port(), "guess\0prompt\0")).isEmpty();
            CompletableFuture<String> right = CompletableFuture.supplyAsync(() -> send(channel.port(), channel.token() + "\0prompt\0"), OWN_THREAD);
            HookChannel.Exchange e = next.get(30, TimeUnit.SECONDS);
            assertThat(HookMessage.parse(e.message())).isEqualTo(new HookMessage.Prompt());
            e.acknowledge();
            assertThat(right.get(30, TimeUnit.SECONDS)).isEqualTo("ok");
        }
    }

    private static String send(int port, String text) {
        try (Socket s = new Socket(InetAddress.getLoopbackAddress(), port)) {
            s.getOutputStream().write(text.getBytes(StandardCharsets.UTF_8));
            s.shutdownOutput();
            return new String(s.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
