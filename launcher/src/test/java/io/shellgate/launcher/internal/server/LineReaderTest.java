package io.shellgate.launcher.internal.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class LineReaderTest {

    /** Hands out at most {@code chunk} bytes per read, as a socket may. */
    private static InputStream trickle(String text, int chunk) {
        ByteArrayInputStream all = new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8));
        return new InputStream() {
            @Override
            public int read() {
                return all.read();
            }

            @Override
            public int read(byte[] b, int off, int len) {
                return all.read(b, off, Math.min(len, chunk));
            }
        };
    }

    @Test
    void linesSentTogetherOrInPiecesComeOutWhole() throws IOException {
        String text = "{\"a\":1}\n{\"b\":\"\u00e9\u4e2d\"}\n\nlast";
        for (int chunk : new int[] {1, 2, 3, 7, 1 << 20}) {
            LineReader r = new LineReader(trickle(text, chunk));
            assertThat(r.next()).as("chunk %d", chunk).isEqualTo("{\"a\":1}");
            assertThat(r.next()).isEqualTo("{\"b\":\"\u00e9\u4e2d\"}");
            assertThat(r.next()).isEmpty();
            assertThat(r.next()).isEqualTo("last");
            assertThat(r.next()).isNull();
        }
    }

    @Test
    void aLineLongerThanTheBlockIsKept() throws IOException {
        String big = "x".repeat(100_000);
        LineReader r = new LineReader(trickle(big + "\nnext\n", 5000));
        assertThat(r.next()).isEqualTo(big);
        assertThat(r.next()).isEqualTo("next");
        assertThat(r.next()).isNull();
    }

    @Test
    void aLineOverTheLimitIsRefusedBeforeItEnds() {
        InputStream endless = new InputStream() {
            @Override
            public int read() {
                return 'x';
            }
        };
        assertThatThrownBy(() -> new LineReader(endless).next()).isInstanceOf(LineReader.TooLong.class);
    }
}
