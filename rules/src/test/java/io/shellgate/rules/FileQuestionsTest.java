package io.shellgate.rules;

import static org.assertj.core.api.Assertions.assertThat;

import io.shellgate.client.FileQuestion;
import io.shellgate.client.FileQuestions;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import java.util.function.BiConsumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A client's answers to the judge server's file questions ({@link FileQuestion}, which the
 * javaagent asks again before it reuses an allow) are the server's ({@link FileFacts}), word for
 * word, on every kind of file: an answer in other words would only cost a round trip, but an
 * equal answer to a different question could reuse an allow that no longer holds.
 */
class FileQuestionsTest {

    @TempDir
    Path dir;

    /** Each question the server asks, by the name it gives it. */
    private static final Map<String, BiConsumer<FileFacts, Path>> SERVER = Map.ofEntries(
            Map.entry("regular", FileFacts::isRegularFile),
            Map.entry("directory", FileFacts::isDirectory),
            Map.entry("exists", FileFacts::exists),
            Map.entry("lexists", FileFacts::existsNoFollow),
            Map.entry("executable", FileFacts::isExecutable),
            Map.entry("real", FileFacts::realPath),
            Map.entry("perms", FileFacts::permissions),
            Map.entry("uid", FileFacts::ownerUid),
            Map.entry("dir-perms", FileFacts::directoryPermissions),
            Map.entry("dir-uid", FileFacts::directoryOwnerUid),
            Map.entry("dir-writable", FileFacts::isDirectoryWritable));

    private List<Path> everyKindOfFile() throws Exception {
        Path file = Files.writeString(dir.resolve("file"), "text");
        Path program = Files.writeString(dir.resolve("program"), "#!/bin/sh\n");
        Files.setPosixFilePermissions(program, PosixFilePermissions.fromString("rwxr-x--x"));
        Path sub = Files.createDirectory(dir.resolve("sub"));
        Path closed = Files.createDirectory(dir.resolve("closed"));
        Files.writeString(closed.resolve("inside"), "x");
        Files.setPosixFilePermissions(closed, PosixFilePermissions.fromString("---------"));
        Path fifo = dir.resolve("fifo");
        assertThat(new ProcessBuilder("mkfifo", fifo.toString()).start().waitFor()).isZero();
        return List.of(file, program, sub, closed, closed.resolve("inside"), fifo,
                Files.createSymbolicLink(dir.resolve("to-file"), file), Files.createSymbolicLink(dir.resolve("to-dir"), sub),
                Files.createSymbolicLink(dir.resolve("dangling"), dir.resolve("nothing")),
                Files.createSymbolicLink(dir.resolve("loop"), dir.resolve("loop")),
                dir.resolve("missing"), file.resolve("below-a-file"), dir.resolve("to-dir/../file"),
                Path.of("/"), Path.of("/bin"), Path.of("/bin/sh"), Path.of("/usr/bin"), Path.of("/proc/self"));
    }

    @Test
    void everyQuestionIsAnsweredInTheServersWordsForEveryKindOfFile() throws Exception {
        int compared = 0;
        for (Path p : everyKindOfFile()) {
            for (Map.Entry<String, BiConsumer<FileFacts, Path>> q : SERVER.entrySet()) {
                FileFacts server = FileFacts.recording();
                q.getValue().accept(server, p);
                FileFacts.Fact fact = server.facts().getFirst();
                assertThat(fact.op()).isEqualTo(q.getKey());
                assertThat(FileQuestion.named(q.getKey()).answer(p)).as(q.getKey() + " " + p).isEqualTo(fact.answer());
                compared++;
            }
            assertThat(FileQuestion.named("identity").answer(p)).as("identity " + p).isEqualTo(FileFacts.identity(p));
            assertThat(FileQuestion.identityByName(p)).as("identity by name " + p).isEqualTo(FileFacts.identity(p));
        }
        assertThat(compared).isEqualTo(18 * SERVER.size());
    }

    @Test
    void anIdentityChangesWhenTheFileIsWrittenOrReplaced() throws Exception {
        Path file = Files.writeString(dir.resolve("policy.toml"), "a");
        String before = FileQuestion.named("identity").answer(file);
        assertThat(before).matches("\\d+:\\d+:1:\\d+");
        Thread.sleep(20);
        Files.writeString(file, "b");
        String written = FileQuestion.named("identity").answer(file);
        assertThat(written).isNotEqualTo(before);
        Path other = Files.writeString(dir.resolve("other"), "b");
        Files.move(other, file, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        assertThat(FileQuestion.named("identity").answer(file)).isNotEqualTo(written);
    }

    @Test
    void aQuestionItDoesNotKnowOrAMalformedFactMeansNoReuse() {
        assertThat(FileQuestions.of(List.of(List.of("regular", "/", "false")))).isNotNull();
        assertThat(FileQuestions.of(List.of(List.of("moon-phase", "/", "full")))).isNull();
        assertThat(FileQuestions.of(List.of(List.of("regular", "relative", "false")))).isNull();
        assertThat(FileQuestions.of(List.of(List.of("regular", "/")))).isNull();
        assertThat(FileQuestions.of(List.of("regular"))).isNull();
    }

    @Test
    void theFactsHoldUntilOneAnswerChanges() throws Exception {
        Path file = Files.writeString(dir.resolve("f"), "x");
        FileQuestions q = FileQuestions.of(List.of(List.of("regular", file.toString(), "true"),
                List.of("lexists", dir.resolve("later").toString(), "false")));
        assertThat(q.stillHold()).isTrue();
        Files.writeString(dir.resolve("later"), "");
        assertThat(q.stillHold()).isFalse();
    }

    @Test
    void aDirectorysOwnerAndPermissionsCountForFiveSecondsAsInTheJudgeAndNothingElseDoes() throws Exception {
        Path sub = Files.createDirectory(dir.resolve("sub"));
        String perms = PosixFilePermissions.toString(Files.getPosixFilePermissions(sub));
        FileQuestions trust = FileQuestions.of(List.of(List.of("dir-perms", sub.toString(), perms)));
        FileQuestions file = FileQuestions.of(List.of(List.of("perms", sub.toString(), perms)));
        assertThat(trust.stillHold()).isTrue();
        assertThat(file.stillHold()).isTrue();
        long changed = System.nanoTime();
        Files.setPosixFilePermissions(sub, PosixFilePermissions.fromString("rwxrwxrwx"));
        assertThat(file.stillHold()).isFalse();
        boolean heldMeanwhile = trust.stillHold();
        long asked = System.nanoTime() - changed;
        if (asked < FileQuestion.DIRECTORY_TTL_NANOS) {
            assertThat(heldMeanwhile).isTrue();
        }
        Thread.sleep(FileQuestion.DIRECTORY_TTL_NANOS / 1_000_000 + 100);
        assertThat(trust.stillHold()).isFalse();
    }
}
