package io.shellgate.reviewer;

import static org.assertj.core.api.Assertions.assertThat;

import io.shellgate.reviewer.model.Printable;
import org.junit.jupiter.api.Test;

/** What an ask shows cannot redraw the person's screen. */
class PrintableTest {

    @Test
    void controlCharactersAreShownNotObeyed() {
        assertThat(Printable.of("touch x\u001b[2K\rls -la")).isEqualTo("touch x^[[2K^Mls -la");
        assertThat(Printable.of("a\u009bb\u202ec\u0000")).isEqualTo("a\\u009bb\\u202ec^@");
        assertThat(Printable.of("two\nlines\tand tab é")).isEqualTo("two\nlines\tand tab é");
    }
}
