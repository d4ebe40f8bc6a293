package io.shellgate.judge;

import static org.assertj.core.api.Assertions.assertThat;

import io.shellgate.rules.Tier;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Read-only git lines judged in real repositories made by the real git (as the red-team corpus's
 * setups make them): the repository and the settings that apply come from git itself, so decoy
 * {@code .git} folders, submodules whose git directory is elsewhere, the user's and the system's
 * configuration, partial clones and credentials in remote URLs are seen as git sees them.
 */
class GitResolutionTest {

    private static final Judge JUDGE = Judges.defaults();

    @TempDir
    Path tmp;
    Path proj;
    Path home;

    @BeforeEach
    void repository() throws Exception {
        home = Files.createDirectories(tmp.resolve("home"));
        proj = Files.createDirectories(tmp.resolve("proj"));
        sh(proj, "git init -q -b main . && git config user.email a@b && git config user.name t"
                + " && printf 'TOKEN=abc\\n' > .env && printf '.env\\n' > .gitignore && printf 'hello\\n' > README.md"
                + " && mkdir src && printf 'class A {}\\n' > src/A.java && git add README.md src .gitignore"
                + " && git commit -qm init");
    }

    private void sh(Path cwd, String script) throws IOException, InterruptedException {
        ProcessBuilder pb = new ProcessBuilder("bash", "-c", script).directory(cwd.toFile()).redirectErrorStream(true);
        pb.environment().put("HOME", home.toString());
        pb.environment().put("GIT_CONFIG_NOSYSTEM", "1");
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes());
        assertThat(p.waitFor()).as("%s: %s", script, out).isZero();
    }

    private Map<String, String> env() {
        Map<String, String> env = new HashMap<>();
        env.put("HOME", home.toString());
        env.put("PATH", "/usr/bin:/bin");
        return env;
    }

    private Verdict judge(String line) {
        return judge(line, env());
    }

    private Verdict judge(String line, Map<String, String> env) {
        return judge(line, env, proj);
    }

    private Verdict judge(String line, Map<String, String> env, Path cwd) {
        return JUDGE.judge(new JudgeRequest(line, Dialect.BASH, cwd, env));
    }

    private void asks(String line, String rule) {
        Verdict v = judge(line);
        assertThat(v.tier()).as(line).isEqualTo(Tier.ASK);
        assertThat(v.reasons()).as(line).anyMatch(r -> r.rule().equals(rule));
    }

    private void allows(String... lines) {
        for (String line : lines) {
            assertThat(judge(line).tier()).as(line + ": " + judge(line)).isEqualTo(Tier.ALLOW);
        }
    }

    @Test
    void everydayLinesInACleanRepositoryAreAllowed() {
        allows("git status", "git log --oneline -5", "git diff", "git diff HEAD -- src", "git show HEAD:README.md",
                "git remote -v", "git config --get user.name", "cd src && git status", "git -C src log -1",
                "git diff --no-index --name-only src .");
    }

    @Test
    void aGitOtherThanTheOneShellgateAsksIsNotTakenOnItsWord() throws Exception {
        Path bin = Files.createDirectories(tmp.resolve("bin"));
        Files.copy(Path.of("/usr/bin/git"), bin.resolve("git"));
        Files.createSymbolicLink(tmp.resolve("same-git"), Path.of("/usr/bin/git"));
        Map<String, String> env = env();
        env.put("PATH", bin + ":/usr/bin:/bin");
        for (String line : List.of("git status", bin + "/git status")) {
            Verdict v = judge(line, env);
            assertThat(v.tier()).as(line).isNotEqualTo(Tier.ALLOW);
            assertThat(v.reasons()).as(line).anyMatch(r -> r.rule().equals("git-repo-config")
                    && r.message().contains("this line runs " + bin.resolve("git")));
        }
        assertThat(judge(tmp.resolve("same-git") + " status").reasons()).as("the same program through a link")
                .noneMatch(r -> r.message().contains("this line runs"));
        allows("git status", "/usr/bin/git status");
    }

    @Test
    void aDecoyGitFolderDoesNotHideTheRepositoryGitFinds() throws Exception {
        sh(proj, "git config core.fsmonitor 'touch /tmp/sg-pwn_fsm; false #'; mkdir -p sub/.git sub/deeper decoy/objects"
                + " decoy/refs && printf 'garbage\\n' > decoy/HEAD && printf '[core]\\n' > decoy/config");
        for (String line : List.of("cd sub && git status", "git -C sub status", "git -C sub/deeper status",
                "cd sub && git grep -n x", "cd decoy && git status", "git status")) {
            asks(line, "git-repo-config");
        }
    }

    @Test
    void aSubmoduleWhoseGitDirectoryIsElsewhereIsAskedAbout() throws Exception {
        sh(proj, "h=$(git rev-parse HEAD); git update-index --add --cacheinfo 160000,$h,sub && git commit -qm sub;"
                + " mkdir -p sub evilgit/objects evilgit/refs; printf 'gitdir: ../evilgit\\n' > sub/.git;"
                + " printf 'ref: refs/heads/main\\n' > evilgit/HEAD; printf '[core]\\n\\tfsmonitor = touch /tmp/sg-pwn_subfsm;"
                + " false #\\n\\trepositoryformatversion = 0\\n\\tbare = false\\n\\tworktree = ../sub\\n' > evilgit/config");
        asks("git status", "git-repo-config");
        asks("git diff", "git-repo-config");
    }

    @Test
    void theUsersAndTheSystemsConfigurationCount() throws Exception {
        allows("git log -p -1");
        Files.writeString(home.resolve(".gitconfig"), "[diff \"x\"]\n\ttextconv = sh -c id --\n");
        asks("git log -p -1", "git-repo-config");
        Files.delete(home.resolve(".gitconfig"));
        allows("git log -p -1");
        Files.createDirectories(home.resolve(".config/git"));
        Files.writeString(home.resolve(".config/git/config"), "[core]\n\tfsmonitor = ./x\n");
        asks("git status", "git-repo-config");
        Files.delete(home.resolve(".config/git/config"));
        Path other = Files.writeString(tmp.resolve("global"), "[core]\n\tpager = sh -c id\n");
        Map<String, String> env = env();
        env.put("GIT_CONFIG_GLOBAL", other.toString());
        assertThat(judge("git log", env).tier()).isEqualTo(Tier.ASK);
        env.remove("GIT_CONFIG_GLOBAL");
        env.put("GIT_CONFIG_COUNT", "1");
        env.put("GIT_CONFIG_KEY_0", "core.fsmonitor");
        env.put("GIT_CONFIG_VALUE_0", "./x");
        assertThat(judge("git status", env).tier()).isEqualTo(Tier.ASK);
        allows("git status");
    }

    @Test
    void aRelativeConfigPathThatAppearsLaterIsSeen() throws Exception {
        // git reads a relative GIT_CONFIG_SYSTEM, GIT_CONFIG_GLOBAL or HOME from the directory it is in when it reads
        // the configuration: the top of the work tree once it found the repository, else where it was started
        Map<String, String> env = env();
        env.put("GIT_CONFIG_SYSTEM", "sys.config");
        env.put("GIT_CONFIG_GLOBAL", "../global.config");
        Map<String, String> relativeHome = env();
        relativeHome.put("HOME", "h");
        Path src = proj.resolve("src");
        for (Path cwd : List.of(proj, src)) {
            for (String line : List.of("git log -p -1", "git status")) {
                assertThat(judge(line, env, cwd).tier()).as(cwd + ": " + line).isEqualTo(Tier.ALLOW);
                assertThat(judge(line, relativeHome, cwd).tier()).as(cwd + ": " + line).isEqualTo(Tier.ALLOW);
            }
        }
        Files.writeString(proj.resolve("sys.config"), "[core]\n\tfsmonitor = touch /tmp/sg-pwn_relsys; false #\n");
        for (Path cwd : List.of(proj, src)) {
            assertThat(judge("git status", env, cwd).tier()).as(cwd + ": git status").isEqualTo(Tier.ASK);
        }
        Files.delete(proj.resolve("sys.config"));
        Files.writeString(tmp.resolve("global.config"), "[diff]\n\texternal = sh -c id\n");
        for (Path cwd : List.of(proj, src)) {
            assertThat(judge("git log -p -1", env, cwd).tier()).as(cwd + ": git log -p -1").isEqualTo(Tier.ASK);
        }
        Files.createDirectories(proj.resolve("h"));
        Files.writeString(proj.resolve("h/.gitconfig"), "[core]\n\tpager = sh -c id\n");
        for (Path cwd : List.of(proj, src)) {
            assertThat(judge("git log -p -1", relativeHome, cwd).tier()).as(cwd + ": HOME=h git log").isEqualTo(Tier.ASK);
        }
        // outside any repository git reads it from where it was started
        Path outside = Files.createDirectories(tmp.resolve("outside"));
        Files.createDirectories(outside.resolve("a"));
        Files.createDirectories(outside.resolve("b"));
        Map<String, String> nowhere = env();
        nowhere.put("GIT_CONFIG_SYSTEM", "sys.config");
        nowhere.put("GIT_CEILING_DIRECTORIES", tmp.toString());
        assertThat(judge("git diff --no-index --name-only a b", nowhere, outside).tier()).isEqualTo(Tier.ALLOW);
        Files.writeString(outside.resolve("sys.config"), "[core]\n\tpager = sh -c id\n");
        assertThat(judge("git diff --no-index --name-only a b", nowhere, outside).tier()).isEqualTo(Tier.ASK);
    }

    @Test
    void gitConfigNamesAFileOnlyGitConfigReads() throws Exception {
        // GIT_CONFIG replaces the configuration for git config alone; git status still reads the repository's
        sh(proj, "git config core.fsmonitor 'touch /tmp/sg-pwn_gitconfig; false #'");
        Path empty = Files.writeString(tmp.resolve("empty.config"), "");
        Map<String, String> env = env();
        env.put("GIT_CONFIG", empty.toString());
        for (String line : List.of("git status", "git diff", "git config --get user.name")) {
            assertThat(judge(line, env).tier()).as(line).isEqualTo(Tier.ASK);
        }
        sh(proj, "git config --unset core.fsmonitor");
        assertThat(judge("git status", env).tier()).isEqualTo(Tier.ALLOW);
        assertThat(judge("git config --get user.name", env).tier()).as("git config reads only the file it names")
                .isEqualTo(Tier.ASK);
    }

    @Test
    void theRepositoryGitDirNamesIsTheOneAskedAbout() throws Exception {
        Path other = Files.createDirectories(tmp.resolve("other"));
        sh(other, "git init -q . && git config core.fsmonitor ./x");
        Map<String, String> env = env();
        env.put("GIT_DIR", other.resolve(".git").toString());
        assertThat(judge("git status", env).tier()).isEqualTo(Tier.ASK);
        allows("git status");
    }

    @Test
    void anIncludeIsFollowedAsGitFollowsIt() throws Exception {
        sh(proj, "git config include.path ../extra.config");
        allows("git log -1");
        Files.writeString(proj.resolve("extra.config"), "[core]\n\tpager = sh -c id\n");
        asks("git log -1", "git-repo-config");
    }

    @Test
    void aPartialCloneAsksForFormsThatReadObjects() throws Exception {
        sh(proj, "git config core.repositoryformatversion 1; git config extensions.partialClone origin;"
                + " git config remote.origin.url 'ext::sh -c touch% /tmp/sg-pwn_promisor'; git config remote.origin.promisor true;"
                + " git config protocol.ext.allow always");
        String sha = "0123456789abcdef0123456789abcdef01234567";
        for (String line : List.of("git cat-file -p " + sha, "git cat-file -e " + sha, "git diff HEAD " + sha,
                "git merge-base HEAD " + sha, "git show " + sha, "git log -1 " + sha)) {
            asks(line, "git-repo-config");
        }
        allows("git status", "git --no-lazy-fetch cat-file -p " + sha);
    }

    @Test
    void credentialsInRemoteUrlsAreNotPrintedUnasked() throws Exception {
        sh(proj, "git remote add origin https://x-access-token:ghp_SECRETSECRET@github.com/o/r.git");
        for (String line : List.of("git remote -v", "git remote get-url origin", "git config --get remote.origin.url",
                "git config --get-all remote.origin.url", "git config get remote.origin.url")) {
            asks(line, "git-credential");
        }
        allows("git remote", "git config --get user.name");
        sh(proj, "git remote set-url origin https://github.com/o/r.git && git remote add up ssh://git@github.com/o/r.git");
        allows("git remote -v", "git config --get remote.origin.url", "git remote get-url up");
        sh(proj, "git config url.https://tok@github.com/.insteadOf https://github.com/");
        asks("git remote -v", "git-credential");
        asks("git config --file .git/config --get remote.origin.url", "git-credential");
        allows("git config --includes --file .git/config --get core.bare");
    }

    @Test
    void aDiffOfPathsOutsideTheRepositoryReadsEveryFileUnderThem() throws Exception {
        Path a = Files.createDirectories(tmp.resolve("a"));
        Path plain = Files.createDirectories(tmp.resolve("plain"));
        Files.writeString(plain.resolve("notes.txt"), "x\n");
        allows("git diff " + a + " " + plain, "git diff --no-index src " + plain);
        Path b = Files.createDirectories(tmp.resolve("b"));
        Files.writeString(b.resolve(".env"), "TOKEN=x\n");
        for (String line : List.of("git diff " + a + " " + b, "git diff --stat -p " + a + " " + b, "git diff -- " + a + " " + b,
                "git diff --no-index src " + b, "git diff --no-index src .", "git diff " + a + " " + tmp.resolve("missing"))) {
            asks(line, "sensitive-path");
        }
        allows("git diff --no-index --name-only src .", "git diff --stat " + a + " " + b);
        // outside any repository git diff of two paths is always --no-index
        Verdict v = JUDGE.judge(new JudgeRequest("git diff x y", Dialect.BASH, tmp, env()));
        assertThat(v.tier()).isEqualTo(Tier.ASK);
    }

    @Test
    void signatureFormatsAskAsShowSignatureDoes() {
        for (String line : List.of("git log --format='%G? %h' -3", "git log --pretty=format:%GS", "git show -s --format=%GK",
                "git log --show-signature -1", "git verify-commit HEAD", "git for-each-ref --format='%(signature)'")) {
            assertThat(judge(line).tier()).as(line).isEqualTo(Tier.ASK);
        }
        allows("git log --format='%%G %h' -1");
    }

    @Test
    void aSettingMadeAfterAnAllowIsSeenByTheNextJudgement() throws Exception {
        allows("git status");
        sh(proj, "git config core.fsmonitor ./x");
        asks("git status", "git-repo-config");
        sh(proj, "git config --unset core.fsmonitor");
        allows("git status");
        sh(proj, "mkdir -p sub/.git");
        Files.writeString(tmp.resolve("proj/sub/.git/HEAD"), "ref: refs/heads/main\n");
        allows("cd sub && git status");
        // the empty folder becomes a repository of its own, whose config git then reads
        Files.writeString(tmp.resolve("proj/sub/.git/config"), "[core]\n\tfsmonitor = ./x\n");
        allows("cd sub && git status");
        Files.createDirectories(tmp.resolve("proj/sub/.git/objects"));
        Files.createDirectories(tmp.resolve("proj/sub/.git/refs"));
        asks("cd sub && git status", "git-repo-config");
    }
}
