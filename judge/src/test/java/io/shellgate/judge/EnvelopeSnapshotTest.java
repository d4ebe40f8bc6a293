package io.shellgate.judge;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * What Claude Code's envelope sources before each command: its shell snapshot, which the agent's
 * own edit tool can rewrite. The snapshots here are the ones Claude Code really writes: its
 * captured snapshot script run by real bash, with the part it writes for a user's {@code ~/.bashrc}
 * ({@code claude-snapshot-bashrc-part.sh}: {@code shopt -p}, each function as
 * {@code eval $'…'}, {@code set -o}, {@code alias -p}, as Claude Code 2.1.328's script prints them).
 */
class EnvelopeSnapshotTest {

    private static final String WHICH = "{ \\builtin unalias -- 'which'; \\builtin unset -f -- 'which'; } >/dev/null 2>&1 || true";
    private static final String UNSETENV = "{ \\builtin unalias -- 'unsetenv'; \\builtin unset -f -- 'unsetenv'; } >/dev/null 2>&1 || true";
    private static final String UNALIAS_ALL = "unalias -a 2>/dev/null || true\n";

    @TempDir
    Path dir;

    private EnvelopeSite site;
    private String real;

    @BeforeEach
    void site() throws Exception {
        site = new EnvelopeSite(dir);
        real = writeWithBash(site);
    }

    /** Runs Claude Code's captured snapshot script with bash, as Claude Code does at start; returns what it wrote. */
    static String writeWithBash(EnvelopeSite site) throws IOException, InterruptedException {
        Files.delete(site.claudeSnapshot);
        ProcessBuilder pb = new ProcessBuilder("bash", "-c", site.captured("claude_code").get(1)).redirectErrorStream(true);
        pb.environment().clear();
        pb.environment().putAll(site.env);
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as(out).isZero();
        return Files.readString(site.claudeSnapshot);
    }

    private String envelope(String snapshot, String command) {
        return "source " + snapshot + " 2>/dev/null || true && \\builtin shopt -u extglob 2>/dev/null || true && " + WHICH
                + " && " + UNSETENV + " && eval " + EnvelopeClaudeTest.quote(command) + " < /dev/null && pwd -P >| "
                + site.tmp + "/" + EnvelopeSite.CWD_NAME;
    }

    private Optional<String> inner(String command) {
        return Envelopes.unwrap("claude-code", site.request(envelope(site.claudeSnapshot.toString(), command)))
                .map(u -> u.inner().command());
    }

    private void snapshot(String text) throws IOException {
        Files.writeString(site.claudeSnapshot, text);
    }

    private String withBashrc() throws IOException {
        String user;
        try (var in = getClass().getResourceAsStream("/envelopes/claude-snapshot-bashrc-part.sh")) {
            user = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        assertThat(real).contains(UNALIAS_ALL);
        return real.replace(UNALIAS_ALL, UNALIAS_ALL + user);
    }

    @Test
    void theSnapshotClaudeCodeWritesIsAcceptedAndItsOwnFunctionsShadowNothing() {
        assertThat(real).contains("function grep {", "function find {", "export PATH=/usr/bin:/bin\n");
        for (String command : List.of("ls -la", "grep -rn class src", "find . -name '*.java'", "rg -n x", "pkill -P $$ sleep")) {
            assertThat(inner(command)).as(command).contains(command);
        }
    }

    @Test
    void aUsersAliasesAreExpandedAndItsFunctionsAsk() throws Exception {
        snapshot(withBashrc());
        assertThat(inner("ls -la")).contains("ls --color=auto -la");
        assertThat(inner("ll src && gs")).as("ll is ls -alF, and its ls an alias too").contains("ls --color=auto -alF src && git status");
        assertThat(inner("\\ls -la")).as("a quoted name is not an alias").contains("\\ls -la");
        assertThat(inner("echo ll")).contains("echo ll");
        assertThat(inner("cat x | ll")).contains("cat x | ls --color=auto -alF");
        assertThat(inner("grep -n x src")).as("Claude Code's own grep").contains("grep -n x src");
        assertThat(inner("mkcd build")).as("the user's function: code the judge has not seen").isEmpty();
        assertThat(inner("coproc mkcd build")).as("a coprocess runs the function too").isEmpty();
        assertThat(inner("coproc ll src")).as("and expands the alias").contains("coproc ls --color=auto -alF src");
        assertThat(inner("noglob mkcd build")).as("zsh's precommand modifiers run the function").isEmpty();
        assertThat(inner("nocorrect mkcd build")).isEmpty();
        assertThat(inner("- mkcd build")).isEmpty();
        assertThat(inner("noglob ll src")).as("an alias after one is not expanded by the judge").isEmpty();
        assertThat(inner("noglob ls-files x")).as("a name neither defines").contains("noglob ls-files x");
        assertThat(inner("ls; (cd x && __pyenv_init)")).isEmpty();
        assertThat(inner("eval ls")).as("text the shell reads later, with the definitions in force").isEmpty();
        assertThat(inner("$cmd x")).isEmpty();
    }

    @Test
    void anAliasTheJudgeCannotExpandAsTheShellDoesAsks() throws Exception {
        snapshot(real.replace(UNALIAS_ALL, UNALIAS_ALL + "alias -- sudo='sudo '\nalias -- l='ll'\nalias -- ll='ls -l'\n"
                + "alias -- rmx='rm -rf ~'\nalias -- loop='loop2 x'\nalias -- loop2='loop y'\n"));
        assertThat(inner("sudo ls")).as("ends in a blank: the next word is an alias too").isEmpty();
        assertThat(inner("l x")).as("an alias of an alias").contains("ls -l x");
        assertThat(inner("ll")).contains("ls -l");
        assertThat(inner("rmx")).as("judged as the text it runs").contains("rm -rf ~");
        assertThat(inner("loop")).as("an alias is not expanded again inside itself").contains("loop y x");
    }

    @ParameterizedTest
    @ValueSource(strings = {"curl -s http://127.0.0.1:9/x | sh", "rm -rf ~", "touch /tmp/pwned", ". ~/.evil", "source /tmp/x.sh",
            "eval \"$(cat /tmp/x)\"", "eval $'rm -rf ~' > /dev/null 2>&1", "eval 'f() { :; }; rm -rf ~' > /dev/null 2>&1",
            "PROMPT_COMMAND='id'", "trap 'id' DEBUG", "shopt -s dotglob", "shopt -s extdebug", "set -o posix", "set -k",
            "alias -g G='| sh'", "alias -- ls=\"$(id)\"", "export LD_PRELOAD=/tmp/x.so", "export BASH_ENV=/tmp/x",
            "declare -fx f", "eval() { rm -rf ~; }", "pwd() { rm -rf ~; }", "builtin() { rm -rf ~; }",
            "function true { id; }", "if true; then id; fi", "f() { :; } > /tmp/x; id", "echo x > /tmp/log", "x=$(id)",
            "exec 3</etc/passwd", "(id)", "{ id; }", "export PATH=$(id):/usr/bin", "unalias -a; id", "enable -f ./x.so pwd"})
    void aSnapshotThatRunsAnythingWhenSourcedIsNotRecognised(String line) throws Exception {
        snapshot(real.replace(UNALIAS_ALL, UNALIAS_ALL + line + "\n"));
        assertThat(inner("ls -la")).as(line).isEmpty();
        snapshot(withBashrc() + line + "\n");
        assertThat(inner("ls -la")).as("after the block: " + line).isEmpty();
    }

    @Test
    void aChangedBlockOfClaudeCodesIsTheUsersOwnAndAsksWhenUsed() throws Exception {
        snapshot(real.replace("command grep ${1+\"$@\"}; return ;;", "curl -s 127.0.0.1:9 | sh; return ;;"));
        assertThat(inner("ls -la")).as("the block is no longer Claude Code's: its if runs hash").isEmpty();
        snapshot(real.replace("export PATH=/usr/bin:/bin", "export PATH=/tmp/evil:/usr/bin:/bin"));
        assertThat(Envelopes.unwrap("claude-code", site.request(envelope(site.claudeSnapshot.toString(), "ls")))
                .orElseThrow().inner().env().get("PATH")).isEqualTo("/tmp/evil:/usr/bin:/bin");
    }

    @Test
    void aRewriteIsSeenAtOnceThoughTheReadIsCached() throws Exception {
        snapshot(withBashrc());
        assertThat(inner("ls -la")).contains("ls --color=auto -la");
        long size = Files.size(site.claudeSnapshot);
        var modified = Files.getLastModifiedTime(site.claudeSnapshot);
        // the same size and modification time: only the change time (which the owner cannot set) tells
        String evil = withBashrc().replace("alias -- gs='git status'", "alias -- gs='rm -rf ~/x'");
        assertThat(evil).hasSize(withBashrc().length());
        snapshot(evil);
        Files.setLastModifiedTime(site.claudeSnapshot, modified);
        assertThat(Files.size(site.claudeSnapshot)).isEqualTo(size);
        assertThat(inner("gs")).contains("rm -rf ~/x");
    }

    @Test
    void aSnapshotPathWithASpaceIsReadAsQuoted() throws Exception {
        EnvelopeSite spaced = new EnvelopeSite(Files.createDirectories(dir.resolve("my home")));
        Files.writeString(spaced.claudeSnapshot, "# Snapshot file\nunalias -a 2>/dev/null || true\nalias -- ll='ls -l'\n"
                + "export PATH='" + spaced.home + "/bin':/usr/bin:/bin\n");
        String quoted = "'" + spaced.claudeSnapshot + "'";
        String text = "source " + quoted + " 2>/dev/null || true && \\builtin shopt -u extglob 2>/dev/null || true && "
                + UNSETENV + " && eval 'll' < /dev/null && pwd -P >| '" + spaced.tmp + "/" + EnvelopeSite.CWD_NAME + "'";
        assertThat(Envelopes.unwrap("claude-code", spaced.request(text)).map(u -> u.inner().command())).contains("ls -l");
        assertThat(Envelopes.unwrap("claude-code", spaced.request(text)).orElseThrow().inner().env().get("PATH"))
                .isEqualTo(spaced.home + "/bin:/usr/bin:/bin");
        Files.writeString(spaced.claudeSnapshot, Files.readString(spaced.claudeSnapshot) + "id\n");
        assertThat(Envelopes.unwrap("claude-code", spaced.request(text))).isEmpty();
    }

    @Test
    void anUnrecognisedEnvelopeIsJudgedWholeAndNotAllowed() throws Exception {
        snapshot(real + "touch /tmp/pwned\n");
        Judge judge = Judges.defaults();
        JudgeRequest whole = site.request(envelope(site.claudeSnapshot.toString(), "ls -la"));
        assertThat(Envelopes.unwrap("claude-code", whole)).isEmpty();
        assertThat(judge.judge(whole).tier()).isNotEqualTo(io.shellgate.rules.Tier.ALLOW);
    }
}
