package io.shellgate.launcher.internal;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class AttachCommandTest {

    @Test
    void readsTheJavaOfBothNumberingSchemes() {
        assertThat(AttachCommand.javaFeature("1.8")).isEqualTo(8);
        assertThat(AttachCommand.javaFeature("17")).isEqualTo(17);
        assertThat(AttachCommand.javaFeature("25")).isEqualTo(25);
        assertThat(AttachCommand.javaFeature("26.0.1")).isEqualTo(26);
        assertThat(AttachCommand.javaFeature(null)).isZero();
        assertThat(AttachCommand.javaFeature("unknown")).isZero();
    }
}
