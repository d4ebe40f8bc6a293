package io.shellgate.judge.internal.analysis.host;

import static org.assertj.core.api.Assertions.assertThat;

import io.shellgate.rules.FileFacts;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** How long answers about PATH directories are kept, on a real file system with a clock of the test's own. */
class TrustedDirectoriesTest {

    @TempDir
    Path dir;

    private final AtomicLong now = new AtomicLong(1_000_000_000L);
    private final TrustedDirectories trust = new TrustedDirectories(List.of(), List.of(), now::get);

    private Path bin() throws IOException {
        Path bin = Files.createDirectories(dir.resolve("bin"));
        Files.setPosixFilePermissions(bin, PosixFilePermissions.fromString("rwxr-xr-x"));
        return bin;
    }

    @Test
    void whetherOthersCanPlantInAPathDirectoryIsKeptForTheDirectoryTimeToLiveThenAskedAgain() throws IOException {
        Path bin = bin();
        assertThat(trust.plantable(bin.toString(), bin, FileFacts.live())).isNull();
        Files.setPosixFilePermissions(bin, PosixFilePermissions.fromString("rwxr-xrwx"));
        now.addAndGet(FileFacts.DIRECTORY_TTL_NANOS - 1);
        assertThat(trust.plantable(bin.toString(), bin, FileFacts.live())).isNull();
        now.addAndGet(1);
        assertThat(trust.plantable(bin.toString(), bin, FileFacts.live())).contains("other users can write it");
    }

    @Test
    void aJudgementThatRecordsItsQuestionsAsksThemAgainAndRecordsThem() throws IOException {
        Path bin = bin();
        assertThat(trust.plantable(bin.toString(), bin, FileFacts.live())).isNull();
        Files.setPosixFilePermissions(bin, PosixFilePermissions.fromString("rwxr-xrwx"));
        FileFacts recording = FileFacts.recording();
        assertThat(trust.plantable(bin.toString(), bin, recording)).contains("other users can write it");
        assertThat(recording.facts()).anySatisfy(f -> assertThat(f.path()).isEqualTo(bin.toString()));
    }

    @Test
    void aRelativeEntryIsTheWorkingDirectoryOfTheMomentAndNeverKept() throws IOException {
        Path bin = bin();
        assertThat(trust.plantable("", bin, FileFacts.live())).contains("relative entry");
        assertThat(trust.plantable("bin", bin, FileFacts.live())).contains("relative entry");
    }

    @Test
    void aMissingDirectoryIsAnsweredAgainOnceItsAnswerIsOld() throws IOException {
        Path open = Files.createDirectories(dir.resolve("open"));
        Files.setPosixFilePermissions(open, PosixFilePermissions.fromString("rwxrwxrwx"));
        Path missing = open.resolve("bin");
        assertThat(trust.plantable(missing.toString(), missing, FileFacts.live()))
                .contains("does not exist and can be created in").contains("other users can write it");
        Files.setPosixFilePermissions(open, PosixFilePermissions.fromString("rwxr-xr-x"));
        assertThat(trust.plantable(missing.toString(), missing, FileFacts.live())).contains("other users can write it");
        now.addAndGet(FileFacts.DIRECTORY_TTL_NANOS);
        assertThat(trust.plantable(missing.toString(), missing, FileFacts.live())).isNull();
    }
}
