package io.shellgate.rules;

import static org.assertj.core.api.Assertions.assertThat;

import io.shellgate.client.FileQuestion;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The one-call {@code lexists} answer against the JDK's and the protocol clients' on a real file system. */
class LinkExistenceTest {

    @TempDir
    Path dir;

    @Test
    void onLinuxTheCLibraryIsAskedDirectly() {
        boolean linux = System.getProperty("os.name", "").toLowerCase(Locale.ROOT).startsWith("linux");
        assertThat(LinkExistence.isNative()).isEqualTo(linux);
    }

    @Test
    void everyKindOfPathGetsTheAnswerFilesExistsWithoutFollowingLinksGives() throws IOException {
        Path file = Files.writeString(dir.resolve("file"), "x");
        Path folder = Files.createDirectories(dir.resolve("folder"));
        Path dangling = Files.createSymbolicLink(dir.resolve("dangling"), dir.resolve("nowhere"));
        Path loop = Files.createSymbolicLink(dir.resolve("loop"), dir.resolve("loop"));
        Path toFile = Files.createSymbolicLink(dir.resolve("to-file"), file);
        Path closed = Files.createDirectories(dir.resolve("closed"));
        Path hidden = Files.writeString(closed.resolve("inside"), "x");
        List<Path> paths = new ArrayList<>(List.of(file, folder, dangling, loop, toFile, closed, hidden,
                dir.resolve("missing"), dir.resolve("missing/below"), file.resolve("below"), dangling.resolve("below"),
                dir.resolve("sp ace é"), Path.of("/"), Path.of("relative-" + System.nanoTime()),
                dir.resolve("x".repeat(300)), Path.of("/" + "d/".repeat(3000) + "f")));
        Files.setPosixFilePermissions(closed, PosixFilePermissions.fromString("---------"));
        try {
            for (Path p : paths) {
                String expected = Boolean.toString(Files.exists(p, LinkOption.NOFOLLOW_LINKS));
                assertThat(LinkExistence.answer(p)).as(p.toString()).isEqualTo(expected);
                assertThat(FileQuestion.LEXISTS.answer(p)).as(p.toString()).isEqualTo(expected);
            }
        } finally {
            Files.setPosixFilePermissions(closed, PosixFilePermissions.fromString("rwx------"));
        }
        // the dangling link is there, the name it points to is not
        assertThat(LinkExistence.answer(dangling)).isEqualTo("true");
        assertThat(LinkExistence.answer(dir.resolve("nowhere"))).isEqualTo("false");
    }

    @Test
    void aRecordingKeepsTheQuestionWithTheAnswerAClientGivesAgain() throws IOException {
        Path dangling = Files.createSymbolicLink(dir.resolve("dangling"), dir.resolve("nowhere"));
        FileFacts facts = FileFacts.recording();
        assertThat(facts.existsNoFollow(dangling)).isTrue();
        assertThat(facts.existsNoFollow(dir.resolve("missing"))).isFalse();
        assertThat(facts.facts()).containsExactly(
                new FileFacts.Fact("lexists", dangling.toString(), FileQuestion.LEXISTS.answer(dangling)),
                new FileFacts.Fact("lexists", dir.resolve("missing").toString(), "false"));
    }
}
