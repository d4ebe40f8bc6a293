package io.shellgate.reviewer.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.shellgate.judge.Dialect;
import io.shellgate.judge.JudgeRequest;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The form an "always" answer remembers a line in: only paths the shell passes on unchanged are written out. */
class ApprovalMatcherTest {

    @TempDir
    Path dir;

    private Path project;
    private Path docs;

    @BeforeEach
    void setUp() throws Exception {
        project = Files.createDirectories(dir.resolve("project"));
        docs = Files.createDirectories(project.resolve("docs"));
        Files.writeString(docs.resolve("a.txt"), "a");
        Files.writeString(dir.resolve("outside.txt"), "o");
        Files.createSymbolicLink(docs.resolve("link"), dir.resolve("outside.txt"));
    }

    private String remembered(String line, Path cwd) {
        return ApprovalMatcher.remembered(new JudgeRequest(line, Dialect.BASH, cwd, Map.of()), project);
    }

    @Test
    void writesOutRelativePathsToFilesAndFoldersInTheProject() {
        assertThat(remembered("vim a.txt", docs)).isEqualTo("vim " + docs.resolve("a.txt"));
        assertThat(remembered("cp -r docs/a.txt ..", docs.getParent())).isEqualTo("cp -r " + docs.resolve("a.txt") + " ..");
        assertThat(remembered("ls .. docs", project)).isEqualTo("ls .. " + docs);
        assertThat(remembered("vim " + docs.resolve("a.txt"), dir)).isEqualTo("vim " + docs.resolve("a.txt"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"vim new.txt", "vim ../../outside.txt", "vim 'a.txt'", "vim \"a.txt\"", "vim a\\.txt",
            "vim $F", "vim a.txt > b", "vim a.txt; rm a.txt", "vim a.tx?", "vim  a.txt", "git checkout -- a.txt=1",
            "scp a.txt:x y", "vim ~/a.txt"})
    void keepsEverythingElseAsTyped(String line) {
        assertThat(remembered(line, docs)).isEqualTo(line);
    }

    @Test
    void aLinkIsNamedAsTheLinkNotWhatItPointsTo() {
        assertThat(remembered("vim link", docs)).isEqualTo("vim " + docs.resolve("link"));
    }

    @Test
    void theProgramWordIsNeverRewritten() throws Exception {
        Files.writeString(docs.resolve("tool"), "#!/bin/sh\n");
        assertThat(remembered("tool a.txt", docs)).isEqualTo("tool " + docs.resolve("a.txt"));
    }

    @Test
    void withoutAProjectTheLineIsKept() {
        assertThat(ApprovalMatcher.remembered(new JudgeRequest("vim a.txt", Dialect.BASH, docs, Map.of()), null))
                .isEqualTo("vim a.txt");
    }
}
