package io.shellgate.judge;

import static org.assertj.core.api.Assertions.assertThat;

import io.shellgate.rules.FileFacts;
import io.shellgate.rules.Layer;
import io.shellgate.rules.PolicyLoader;
import io.shellgate.rules.PolicySource;
import io.shellgate.rules.Tier;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The judge against a real file system: PATH resolution and trust, repository config, budgets. */
class HostTest {

    private static final Judge JUDGE = Judges.defaults();

    @TempDir
    Path dir;

    private static Path executable(Path file) throws IOException {
        Files.createDirectories(file.getParent());
        Files.writeString(file, "#!/bin/sh\necho evil\n");
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rwxr-xr-x"));
        return file;
    }

    private Verdict judge(String line, Map<String, String> env) {
        return JUDGE.judge(new JudgeRequest(line, Dialect.BASH, dir, env));
    }

    private static Map<String, String> env(String path) {
        Map<String, String> env = new HashMap<>();
        env.put("HOME", "/nonexistent-home");
        env.put("PATH", path);
        return env;
    }

    @Test
    void aProgramShadowingLsFromAnUntrustedDirectoryOnPathAsks() throws IOException {
        Path evil = executable(dir.resolve("evil/ls")).getParent();
        Verdict v = judge("ls", env(evil + ":/usr/bin:/bin"));
        assertThat(v.tier()).isEqualTo(Tier.ASK);
        assertThat(v.reasons()).anySatisfy(r -> assertThat(r.message()).contains(evil.resolve("ls").toString()));
    }

    @Test
    void anAssignmentOnTheLineThatPutsAnEvilDirectoryFirstAsks() throws IOException {
        Path evil = executable(dir.resolve("evil/cat")).getParent();
        assertThat(judge("PATH=" + evil + ":$PATH cat README", env("/usr/bin:/bin")).tier()).isEqualTo(Tier.ASK);
        assertThat(judge("export PATH=" + evil + ":$PATH; cat README", env("/usr/bin:/bin")).tier()).isEqualTo(Tier.ASK);
        assertThat(judge("env PATH=" + evil + " cat README", env("/usr/bin:/bin")).tier()).isEqualTo(Tier.ASK);
    }

    @Test
    void appendingADirectoryThatDoesNotShadowTheCommandStaysAllowed() throws IOException {
        Path other = executable(dir.resolve("opt/tool")).getParent();
        assertThat(judge("PATH=$PATH:" + other + " ls", env("/usr/bin:/bin")).tier()).isEqualTo(Tier.ALLOW);
    }

    @Test
    void relativeAndTemporaryProgramsAreNotTrusted() throws IOException {
        executable(dir.resolve("ls"));
        assertThat(judge("./ls", env("/usr/bin:/bin")).tier()).isEqualTo(Tier.ASK);
        assertThat(judge(dir.resolve("ls") + " -la", env("/usr/bin:/bin")).tier()).isEqualTo(Tier.ASK);
        // an empty PATH entry means the working directory
        assertThat(judge("ls", env(":/usr/bin:/bin")).tier()).isEqualTo(Tier.ASK);
    }

    @Test
    void aLinkFromATrustedNameToAnUntrustedFileIsNotTrusted() throws IOException {
        Path target = executable(dir.resolve("real/cat"));
        Path bin = Files.createDirectories(dir.resolve("bin"));
        Files.createSymbolicLink(bin.resolve("cat"), target);
        assertThat(judge("cat x", env(bin + ":/usr/bin")).tier()).isEqualTo(Tier.ASK);
    }

    @Test
    void aFunctionExportedInTheEnvironmentShadowsTheProgramInBash() {
        Map<String, String> env = env("/usr/bin:/bin");
        env.put("BASH_FUNC_ls%%", "() {  rm -rf ~\n}");
        Verdict v = judge("ls -la", env);
        assertThat(v.tier()).isEqualTo(Tier.ASK);
        assertThat(v.primary().rule()).isEqualTo("imported-function");
        // also through a wrapper and in a bash started by the line; not through command, which skips functions
        assertThat(judge("timeout 5 ls", env).tier()).isEqualTo(Tier.ASK);
        assertThat(judge("bash -c ls", env).tier()).isEqualTo(Tier.ASK);
        assertThat(judge("command ls", env).tier()).isEqualTo(Tier.ALLOW);
        // a function the line defines itself is judged by its body
        assertThat(judge("ls() { pwd; }; ls", env).tier()).isEqualTo(Tier.ALLOW);
        // zsh does not import bash functions
        assertThat(JUDGE.judge(new JudgeRequest("ls -la", Dialect.ZSH, dir, env)).tier()).isEqualTo(Tier.ALLOW);
        assertThat(judge("cat x", env).tier()).isEqualTo(Tier.ALLOW);
    }

    @Test
    void aShellOrInterpreterFromAnUntrustedDirectoryIsNotTrusted() throws IOException {
        Path bin = executable(dir.resolve("bin/bash")).getParent();
        executable(bin.resolve("timeout"));
        Verdict v = judge("bash -c 'ls'", env(bin + ":/usr/bin:/bin"));
        assertThat(v.tier()).isEqualTo(Tier.ASK);
        assertThat(v.primary().rule()).isEqualTo("untrusted-program");
        assertThat(judge("timeout 5 ls", env(bin + ":/usr/bin:/bin")).tier()).isEqualTo(Tier.ASK);
        assertThat(judge("bash -c 'ls'", env("/usr/bin:/bin")).tier()).isEqualTo(Tier.ALLOW);
    }

    @Test
    void systemProgramsAreTrusted() {
        assertThat(judge("ls -la", env("/usr/local/bin:/usr/bin:/bin")).tier()).isEqualTo(Tier.ALLOW);
        assertThat(judge("/usr/bin/cat README", env("/usr/bin:/bin")).tier()).isEqualTo(Tier.ALLOW);
    }

    @Test
    void readOnlyGitAsksInARepositoryWhoseConfigRunsPrograms() throws IOException {
        Files.createDirectories(dir.resolve(".git/objects"));
        Files.createDirectories(dir.resolve(".git/refs"));
        Files.writeString(dir.resolve("other.config"), "[core]\n\tpager = sh -c id\n");
        Files.writeString(dir.resolve(".git/HEAD"), "ref: refs/heads/main\n");
        Files.writeString(dir.resolve(".git/config"), "[core]\n\tbare = false\n");
        assertThat(judge("git status", env("/usr/bin:/bin")).tier()).isEqualTo(Tier.ALLOW);
        for (String setting : List.of("[core]\n\tfsmonitor = ./hook.sh\n", "[core]\n\tpager = sh -c id\n",
                "[diff \"x\"]\n\ttextconv = ./conv\n", "[filter \"lfs\"]\n\tclean = ./clean %f\n",
                "[include]\n\tpath = ../other.config\n", "[diff]\n\texternal = ./ext\n")) {
            Files.writeString(dir.resolve(".git/config"), setting);
            Verdict v = judge("git status", env("/usr/bin:/bin"));
            assertThat(v.tier()).as(setting).isEqualTo(Tier.ASK);
            assertThat(v.reasons()).as(setting).anyMatch(r -> r.rule().equals("git-repo-config"));
        }
        Files.writeString(dir.resolve(".git/config"), "[core]\n\tfsmonitor = false\n");
        assertThat(judge("git log", env("/usr/bin:/bin")).tier()).isEqualTo(Tier.ALLOW);
    }

    // The judge remembers allow verdicts with the answers the machine gave while reaching them
    // (VerdictMemo). These lines are judged again after the machine changed under them.

    /** A private key in {@code home/.ssh} under the test directory. */
    private Path privateKey(String name) throws IOException {
        Path key = Files.createDirectories(dir.resolve("home/.ssh")).resolve(name);
        Files.writeString(key, "-----BEGIN OPENSSH PRIVATE KEY-----\n");
        return key;
    }

    /** The usual environment, with {@code HOME} the test directory's {@code home}. */
    private Map<String, String> envWithHome() {
        Map<String, String> env = env("/usr/bin:/bin");
        env.put("HOME", dir.resolve("home").toString());
        return env;
    }

    @Test
    void aRememberedAllowIsReusedOnlyWhileTheMachineIsUnchanged() throws IOException {
        Judge judge = Judges.defaults();
        Files.writeString(dir.resolve("notes.txt"), "hello");
        JudgeRequest request = JudgeRequest.ofArgv(List.of("cat", "notes.txt"), dir, env("/usr/bin:/bin"));
        Verdict first = judge.judge(request);
        assertThat(first.tier()).isEqualTo(Tier.ALLOW);
        assertThat(judge.judge(JudgeRequest.ofArgv(List.of("cat", "notes.txt"), dir, env("/usr/bin:/bin")))).isSameAs(first);
        // another environment is another request
        assertThat(judge.judge(JudgeRequest.ofArgv(List.of("cat", "notes.txt"), dir, env("/bin:/usr/bin")))).isNotSameAs(first);
        assertThat(judge.judge(JudgeRequest.ofArgv(List.of("cat", "notes.txt"), dir.getParent(), env("/usr/bin:/bin"))))
                .isNotSameAs(first);
    }

    @Test
    void aRememberedAllowIsJudgedAgainWhenTheLinkItReadsNowPointsAtASecret() throws IOException {
        Judge judge = Judges.defaults();
        Path key = privateKey("id_ed25519");
        Path plain = Files.writeString(dir.resolve("plain.txt"), "hello");
        Path link = Files.createSymbolicLink(dir.resolve("notes.txt"), plain);
        Map<String, String> env = envWithHome();
        for (String line : List.of("cat notes.txt", "cat ./notes.txt", "head -n 3 notes.txt")) {
            assertThat(judge.judge(new JudgeRequest(line, Dialect.BASH, dir, env)).tier()).as(line).isEqualTo(Tier.ALLOW);
        }
        assertThat(judge.judge(JudgeRequest.ofArgv(List.of("cat", "notes.txt"), dir, env)).tier()).isEqualTo(Tier.ALLOW);
        Files.delete(link);
        Files.createSymbolicLink(link, key);
        for (String line : List.of("cat notes.txt", "cat ./notes.txt", "head -n 3 notes.txt")) {
            assertThat(judge.judge(new JudgeRequest(line, Dialect.BASH, dir, env)).tier()).as(line).isEqualTo(Tier.ASK);
        }
        assertThat(judge.judge(JudgeRequest.ofArgv(List.of("cat", "notes.txt"), dir, env)).tier()).isEqualTo(Tier.ASK);
    }

    @Test
    void aRememberedAllowIsJudgedAgainWhenAGlobNowMatchesASecret() throws IOException {
        Judge judge = Judges.defaults();
        Path key = privateKey("id_rsa");
        Files.writeString(dir.resolve("a.txt"), "hello");
        Map<String, String> env = envWithHome();
        assertThat(judge.judge(new JudgeRequest("cat *.txt", Dialect.BASH, dir, env)).tier()).isEqualTo(Tier.ALLOW);
        Files.createSymbolicLink(dir.resolve("b.txt"), key);
        assertThat(judge.judge(new JudgeRequest("cat *.txt", Dialect.BASH, dir, env)).tier()).isEqualTo(Tier.ASK);
    }

    @Test
    void aRememberedAllowIsJudgedAgainWhenAProgramNowShadowsIt() throws IOException {
        Judge judge = Judges.defaults();
        Path evil = Files.createDirectories(dir.resolve("evil"));
        Map<String, String> env = env(evil + ":/usr/bin:/bin");
        Verdict before = judge.judge(JudgeRequest.ofArgv(List.of("ls", "-la"), dir, env));
        executable(evil.resolve("ls"));
        Verdict after = judge.judge(JudgeRequest.ofArgv(List.of("ls", "-la"), dir, env));
        assertThat(after.tier()).as("before: %s", before.reasons()).isEqualTo(Tier.ASK);
        assertThat(after.reasons()).anySatisfy(r -> assertThat(r.message()).contains(evil.resolve("ls").toString()));
    }

    /** The facts as "op path answer" lines. */
    private static List<String> facts(List<FileFacts.Fact> facts) {
        return facts.stream().map(f -> f.op() + " " + f.path() + " " + f.answer()).toList();
    }

    @Test
    void anAllowOffersTheFileFactsItRestsOnAndTheyFollowTheMachine() throws IOException {
        Path bin = Files.createDirectories(dir.resolve("bin"));
        Map<String, String> env = env(bin + ":/usr/bin:/bin");
        JudgeRequest ls = new JudgeRequest("ls -la", Dialect.BASH, dir, env);
        assertThat(JUDGE.facts(ls)).as("nothing judged yet").isNull();
        assertThat(JUDGE.judge(ls).tier()).isEqualTo(Tier.ALLOW);
        List<String> facts = facts(JUDGE.facts(ls));
        Path real = Path.of("/usr/bin/ls").toRealPath();
        // not in the directory first on PATH, then found and followed to the file that runs, whose directories are the system's
        assertThat(facts).contains("regular " + bin.resolve("ls") + " false", "real /usr/bin/ls " + real, "dir-uid / 0", "dir-uid " + real.getParent() + " 0",
                        "perms " + real + " " + PosixFilePermissions.toString(Files.getPosixFilePermissions(real)))
                .doesNotHaveDuplicates();
        // a program that now shadows it: the facts no longer hold, and the verdict is not the same
        executable(bin.resolve("ls"));
        assertThat(JUDGE.facts(ls)).isNull();
        assertThat(JUDGE.judge(ls).tier()).isEqualTo(Tier.ASK);
    }

    @Test
    void anAllowThatRestsOnMoreThanFileFactsOffersNone() throws IOException {
        Files.writeString(dir.resolve("notes.txt"), "x");
        JudgeRequest glob = new JudgeRequest("cat *.txt", Dialect.BASH, dir, env("/usr/bin:/bin"));
        assertThat(JUDGE.judge(glob).tier()).isEqualTo(Tier.ALLOW);
        assertThat(JUDGE.facts(glob)).isNull();
        JudgeRequest ask = new JudgeRequest("touch x", Dialect.BASH, dir, env("/usr/bin:/bin"));
        assertThat(JUDGE.judge(ask).tier()).isEqualTo(Tier.ASK);
        assertThat(JUDGE.facts(ask)).isNull();
    }

    @Test
    void aWorktreeGitFileIsFollowedToItsConfig() throws IOException {
        Files.createDirectories(dir.resolve("main/.git/objects"));
        Files.createDirectories(dir.resolve("main/.git/refs"));
        Files.writeString(dir.resolve("main/.git/HEAD"), "ref: refs/heads/main\n");
        Files.writeString(dir.resolve("main/.git/config"), "[core]\n\tpager = evil\n");
        Path gitDir = Files.createDirectories(dir.resolve("main/.git/worktrees/wt"));
        Files.writeString(gitDir.resolve("HEAD"), "ref: refs/heads/wt\n");
        Files.writeString(gitDir.resolve("commondir"), "../..\n");
        Path wt = Files.createDirectories(dir.resolve("wt"));
        Files.writeString(wt.resolve(".git"), "gitdir: " + gitDir + "\n");
        Verdict v = JUDGE.judge(new JudgeRequest("git diff", Dialect.BASH, wt, env("/usr/bin:/bin")));
        assertThat(v.tier()).as(v.toString()).isEqualTo(Tier.ASK);
    }

    @Test
    void aParseThatRunsPastItsTimeBudgetAsks() throws Exception {
        String tight = "[settings]\ntime-budget-ms = 1\n";
        var policy = PolicyLoader.load(List.of(PolicyLoader.builtIn(), new PolicySource(Layer.USER, "/u.toml", tight)), null);
        Judge judge = Judges.create(policy);
        String line = "cat x " + "| grep y ".repeat(6000);
        Verdict v = judge.judge(new JudgeRequest(line, Dialect.BASH, dir, env("/usr/bin:/bin")));
        assertThat(v.tier()).isEqualTo(Tier.ASK);
        assertThat(v.reasons()).anyMatch(r -> r.rule().equals("time-budget"));
    }

    @Test
    void deeplyNestedInputAsksInsteadOfFailing() {
        String deep = "echo " + "$(".repeat(5000) + "ls" + ")".repeat(5000);
        Verdict v = judge(deep, env("/usr/bin:/bin"));
        assertThat(v.tier()).isEqualTo(Tier.ASK);
        assertThat(v.reasons()).noneMatch(r -> r.rule().equals("internal-error"));
    }
}
