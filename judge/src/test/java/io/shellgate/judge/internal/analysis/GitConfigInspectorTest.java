package io.shellgate.judge.internal.analysis;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class GitConfigInspectorTest {

    private static Path repo(Path dir, String config) throws IOException {
        Files.createDirectories(dir.resolve(".git"));
        Files.writeString(dir.resolve(".git/HEAD"), "ref: refs/heads/main\n");
        Files.writeString(dir.resolve(".git/config"), config);
        return dir;
    }

    @Test
    void aPlainConfigIsFine(@TempDir Path dir) throws IOException {
        repo(dir, "[core]\n\trepositoryformatversion = 0\n\tbare = false\n[remote \"origin\"]\n\turl = x\n");
        assertThat(new GitConfigInspector().problem(dir)).isNull();
    }

    @Test
    void aContinuedValueDoesNotStartANewSection(@TempDir Path dir) throws IOException {
        // git reads "[x]" as the rest of abbrev's value, so fsmonitor is core.fsmonitor
        repo(dir, "[core]\n\tabbrev = 7 \\\n[x]\n\tfsmonitor = touch /tmp/pwn\n");
        assertThat(new GitConfigInspector().problem(dir)).contains("core.fsmonitor");
    }

    @Test
    void readsKeysAsGitDoes(@TempDir Path dir) throws IOException {
        assertThat(GitConfigInspector.scan(dir, "[core] fsmonitor = x\n")).contains("core.fsmonitor");
        assertThat(GitConfigInspector.scan(dir, "[CORE]\n\tFsMonitor = \"x ; y\" # comment\n")).contains("core.fsmonitor");
        assertThat(GitConfigInspector.scan(dir, "[core]\n\tfsmonitor = false\n")).isNull();
        assertThat(GitConfigInspector.scan(dir, "[man \"x\"]\n\tcmd = sh -c id\n")).contains("man.x.cmd");
        assertThat(GitConfigInspector.scan(dir, "[man]\n\tviewer = x\n")).contains("man.viewer");
        assertThat(GitConfigInspector.scan(dir, "[hook \"x\"]\n\tcommand = id\n\tevent = pre-commit\n")).contains("hook.x");
        assertThat(GitConfigInspector.scan(dir, "[core]\n\tworktree = /root/.ssh\n")).contains("core.worktree");
        assertThat(GitConfigInspector.scan(dir, "[trace2]\n\teventTarget = /tmp/x\n")).contains("trace2");
        assertThat(GitConfigInspector.scan(dir, "[includeIf \"gitdir:~/\"]\n\tpath = x\n")).contains("include");
        assertThat(GitConfigInspector.scan(dir, "[diff \"x\"]\n\ttextconv = id\n")).contains("diff.x.textconv");
        assertThat(GitConfigInspector.scan(dir, "[core]\n\tpager = \"less\\\n\"\n")).contains("core.pager");
        // what git would refuse to read cannot be judged
        assertThat(GitConfigInspector.scan(dir, "[core\n\tx = 1\n")).contains("cannot be read");
        assertThat(GitConfigInspector.scan(dir, "[core]\n\tx = \"unterminated\n")).contains("cannot be read");
    }

    @Test
    void readsTheCommonDirectoryOfAGitDirectory(@TempDir Path dir) throws IOException {
        Path common = dir.resolve("common");
        Files.createDirectories(common);
        Files.writeString(common.resolve("config"), "[core]\n\tpager = sh -c id\n");
        Path work = repo(dir.resolve("work"), "[core]\n\tbare = false\n");
        Files.writeString(work.resolve(".git/commondir"), "../../common\n");
        assertThat(new GitConfigInspector().problem(work)).contains("core.pager").contains("common");
    }

    @Test
    void readsTheConfigsOfSubmodules(@TempDir Path dir) throws IOException {
        repo(dir, "[core]\n\tbare = false\n");
        Path module = dir.resolve(".git/modules/lib/nested");
        Files.createDirectories(module);
        Files.writeString(module.resolve("config"), "[core]\n\tfsmonitor = id\n");
        assertThat(new GitConfigInspector().problem(dir.resolve("src"))).contains("core.fsmonitor").contains("modules");
    }
}
