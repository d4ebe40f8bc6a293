package io.shellgate.launcher.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SetupCommandTest {

    @TempDir
    Path dir;

    @Test
    void aSecondChangeWithinTheSameSecondKeepsBothEarlierVersions() throws Exception {
        Path settings = dir.resolve("settings.json");
        Instant now = Instant.parse("2026-12-03T19:22:24.731Z");
        Files.writeString(settings, "first\n");
        Path one = SetupCommand.keep(settings, now);
        Files.writeString(settings, "second\n");
        Path two = SetupCommand.keep(settings, now.plusMillis(200));
        Files.writeString(settings, "third\n");
        Path three = SetupCommand.keep(settings, now.plusMillis(250));

        assertThat(one.getFileName().toString()).isEqualTo("settings.json.shellgate-backup-2026-12-03T192224Z");
        assertThat(two.getFileName().toString()).isEqualTo("settings.json.shellgate-backup-2026-12-03T192224Z-2");
        assertThat(three.getFileName().toString()).isEqualTo("settings.json.shellgate-backup-2026-12-03T192224Z-3");
        assertThat(Files.readString(one)).isEqualTo("first\n");
        assertThat(Files.readString(two)).isEqualTo("second\n");
        assertThat(Files.readString(three)).isEqualTo("third\n");
    }

    @Test
    void aWriteKeepsTheOldFileAndReplacesItWhole() throws Exception {
        Path settings = dir.resolve("settings.json");
        assertThat(SetupCommand.write(settings, "new\n")).isNull();
        Path backup = SetupCommand.write(settings, "newer\n");
        Path again = SetupCommand.write(settings, "newest\n");
        assertThat(Files.readString(settings)).isEqualTo("newest\n");
        assertThat(Files.readString(backup)).isEqualTo("new\n");
        assertThat(Files.readString(again)).isEqualTo("newer\n");
        try (var files = Files.list(dir)) {
            assertThat(files.map(p -> p.getFileName().toString())).noneMatch(n -> n.contains("shellgate-tmp"));
        }
    }
}
