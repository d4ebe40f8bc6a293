package io.shellgate.launcher.internal.pty;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** The Unix channel with real FIFOs and a real shell on the other side, as the integrations use it. */
@Timeout(60)
class FifoChannelTest {

    @TempDir
    Path dir;

    @Test
    void everyMessageOfWritersThatOpenTheFifoOneRightAfterTheOtherArrives() throws Exception {
        try (FifoChannel channel = new FifoChannel(dir)) {
            // as a hook does it: a prompt report, then a check typed right after it, each its own open
            Process shell = new ProcessBuilder("sh", "-c", "i=0; while [ $i -lt 300 ]; do i=$((i+1));"
                    + " printf 'prompt\\000\\036\\000' > req; printf 'check\\000%s\\000ls\\000/\\000\\036\\000' $i > req; done")
                    .directory(dir.toFile()).redirectErrorStream(true).start();
            List<HookMessage> got = new ArrayList<>();
            while (got.size() < 600) {
                got.add(HookMessage.parse(channel.next().message()));
            }
            assertThat(shell.waitFor(60, TimeUnit.SECONDS)).isTrue();
            assertThat(got).filteredOn(HookMessage.Prompt.class::isInstance).hasSize(300);
            assertThat(got).filteredOn(HookMessage.Check.class::isInstance).extracting(m -> ((HookMessage.Check) m).seq())
                    .containsExactlyElementsOf(java.util.stream.LongStream.rangeClosed(1, 300).boxed().toList());
        }
    }

    @Test
    void aReplyReachesTheHookThatWaitsForIt() throws Exception {
        try (FifoChannel channel = new FifoChannel(dir)) {
            Process shell = new ProcessBuilder("sh", "-c", "printf 'check\\000%s\\000ls\\000/\\000\\036\\000' 1 > req;"
                    + " read r < rep; echo \"$r\" > got").directory(dir.toFile()).redirectErrorStream(true).start();
            HookChannel.Exchange e = channel.next();
            assertThat(HookMessage.parse(e.message())).isInstanceOf(HookMessage.Check.class);
            e.reply("1 run");
            assertThat(shell.waitFor(60, TimeUnit.SECONDS)).isTrue();
            assertThat(Files.readString(dir.resolve("got"), StandardCharsets.UTF_8)).isEqualTo("1 run\n");
        }
    }

    @Test
    void closingEndsAWaitForTheNextMessage() throws Exception {
        FifoChannel channel = new FifoChannel(dir);
        Thread closer = Thread.ofPlatform().start(() -> {
            try {
                // most likely waiting in its read by then; closed earlier, it must return null as well
                Thread.sleep(200);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            channel.close();
        });
        assertThat(channel.next()).isNull();
        closer.join();
    }
}
