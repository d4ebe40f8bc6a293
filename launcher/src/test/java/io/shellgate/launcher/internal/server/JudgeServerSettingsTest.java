package io.shellgate.launcher.internal.server;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class JudgeServerSettingsTest {

    @Test
    void aQuietConnectionIsKeptThirtySecondsUnlessSetToAWholeNumberOfSeconds() {
        assertThat(JudgeServer.connectionIdleMillis(null)).isEqualTo(30_000);
        assertThat(JudgeServer.connectionIdleMillis("")).isEqualTo(30_000);
        assertThat(JudgeServer.connectionIdleMillis("-5")).isEqualTo(30_000);
        assertThat(JudgeServer.connectionIdleMillis("1e9")).isEqualTo(30_000);
        assertThat(JudgeServer.connectionIdleMillis("999999")).isEqualTo(30_000);
        assertThat(JudgeServer.connectionIdleMillis("6")).isEqualTo(6_000);
        assertThat(JudgeServer.connectionIdleMillis("0")).isEqualTo(1_000);
    }
}
