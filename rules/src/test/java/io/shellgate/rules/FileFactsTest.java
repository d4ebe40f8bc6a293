package io.shellgate.rules;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FileFactsTest {

    @TempDir
    Path dir;

    @Test
    void aFileReadIsKeptAsItsIdentity() throws Exception {
        Path file = Files.writeString(dir.resolve("policy.toml"), "version = 1\n");
        FileFacts facts = FileFacts.recording();
        assertThat(facts.readString(file)).isEqualTo("version = 1\n");
        // just written: a change within the same tick of the clock could keep its time stamps
        assertThat(facts.facts()).isNull();
        String identity = FileFacts.identity(file);
        assertThat(identity).matches("\\d+:\\d+:12:\\d+");
        assertThat(identity.substring(identity.lastIndexOf(':') + 1))
                .isEqualTo(Long.toString(Files.getLastModifiedTime(file).to(java.util.concurrent.TimeUnit.NANOSECONDS)));
    }

    @Test
    void aFileWrittenAndGivenAnOldModificationTimeIsNotEnoughToDecideAgain() throws Exception {
        Path file = Files.writeString(dir.resolve("policy.toml"), "version = 1\n");
        // the modification time says an hour ago, the change time says now
        Files.setLastModifiedTime(file, FileTime.from(Instant.now().minus(1, ChronoUnit.HOURS)));
        FileFacts facts = FileFacts.recording();
        facts.readString(file);
        assertThat(facts.facts()).isNull();
    }

    @Test
    void aMissingFileHasNoIdentityAndAnswersAreKeptOnce() {
        FileFacts facts = FileFacts.recording();
        assertThat(FileFacts.identity(dir.resolve("none"))).isEmpty();
        assertThat(facts.isRegularFile(dir.resolve("none"))).isFalse();
        assertThat(facts.isRegularFile(dir.resolve("none"))).isFalse();
        assertThat(facts.exists(dir)).isTrue();
        assertThat(facts.facts()).containsExactly(new FileFacts.Fact("regular", dir.resolve("none").toString(), "false"),
                new FileFacts.Fact("exists", dir.toString(), "true"));
    }
}
