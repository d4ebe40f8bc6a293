package io.shellgate.launcher.internal.pty;

import static org.assertj.core.api.Assertions.assertThat;

import io.shellgate.launcher.internal.terminal.WindowSize;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The proxy's plumbing with pure-Java terminals: bytes, sizes, exit code, and the terminal put back. */
class PtyProxyTest {

    /** A thread per task: the common pool has a single thread on a two-core machine. */
    private static final java.util.concurrent.Executor OWN_THREAD = r -> Thread.ofPlatform().daemon().start(r);

    private final FakeTerminals.User user = new FakeTerminals.User();
    private final FakeTerminals.Child child = new FakeTerminals.Child();
    private final LocalChannel channel = new LocalChannel();

    private CompletableFuture<Integer> start() {
        PtyProxy proxy = new PtyProxy(user, child);
        return CompletableFuture.supplyAsync(() -> {
            try {
                return proxy.run(List.of("sh"), Map.of(), Path.of("/"), channel, (pid, person, voice) -> null, (s, w) -> null);
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        }, OWN_THREAD);
    }

    @Test
    void passesEveryByteBothWaysAndReturnsTheShellsExitCode() throws Exception {
        CompletableFuture<Integer> run = start();
        child.spawned.await();
        byte[] all = new byte[256 * 1024];
        for (int i = 0; i < all.length; i++) {
            all[i] = (byte) (i * 31 + (i >> 8));
        }
        child.prints.write(all);
        user.keys.write(new byte[] {'l', 's', '\r', 3, 26, 4, (byte) 0xc3, (byte) 0xa9});
        user.keys.flush();
        while (child.typed.size() < 8) {
            Thread.sleep(10);
        }
        child.exit(7);
        assertThat(run.get(30, TimeUnit.SECONDS)).isEqualTo(7);
        assertThat(user.shown()).isEqualTo(all);
        assertThat(child.typed.toByteArray()).containsExactly('l', 's', '\r', 3, 26, 4, 0xc3, 0xa9);
    }

    @Test
    void startsAtTheUsersSizeAndFollowsEveryResize() throws Exception {
        user.size = new WindowSize(120, 40);
        CompletableFuture<Integer> run = start();
        child.spawned.await();
        while (user.resized == null) {
            Thread.sleep(10);
        }
        user.size = new WindowSize(90, 30);
        user.resized.run();
        child.exit(0);
        run.get(30, TimeUnit.SECONDS);
        assertThat(child.sizes).containsExactly(new WindowSize(120, 40), new WindowSize(90, 30));
    }

    @Test
    void putsTheTerminalBackWhenTheShellEnds() throws Exception {
        CompletableFuture<Integer> run = start();
        child.spawned.await();
        assertThat(user.raw).isTrue();
        child.exit(130);
        assertThat(run.get(30, TimeUnit.SECONDS)).isEqualTo(130);
        assertThat(user.raw).isFalse();
        assertThat(user.restored).isEqualTo(1);
    }

    @Test
    void putsTheTerminalBackWhenTheShellCannotStart() {
        PtyProxy proxy = new PtyProxy(user, (command, env, cwd, size) -> {
            throw new java.io.IOException("no such shell");
        });
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> proxy.run(List.of("nope"), Map.of(), Path.of("/"), channel,
                (pid, person, voice) -> null, (s, w) -> null)).hasMessageContaining("no such shell");
        assertThat(user.raw).isFalse();
        assertThat(user.restored).isEqualTo(1);
    }
}
