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

/**
 * Codex's snapshot envelope (save variables, source the snapshot, restore them, codex-path first
 * on PATH, exec the shell on the command) and its start-up probes, with an attacker's variations.
 */
class EnvelopeCodexTest {

    private static final String EXEC = "exec '/bin/bash' -c 'ls -la'";

    @TempDir
    Path dir;

    private EnvelopeSite site;
    private String captured;

    @BeforeEach
    void site() {
        site = new EnvelopeSite(dir);
        captured = site.captured("codex").get(4);
        assertThat(captured).endsWith("\n\n" + EXEC);
    }

    private String envelope(String exec) {
        return captured.substring(0, captured.length() - EXEC.length()) + exec;
    }

    private Optional<JudgeRequest> inner(String text) {
        return Envelopes.unwrap("codex", site.request(text)).map(Envelopes.Unwrapped::inner);
    }

    @ParameterizedTest
    @ValueSource(strings = {"ls -la", "echo 'it'\\''s'", "git log --format='%H %s' | head -3", "cat <<'EOF'\n' x\nEOF", "''"})
    void theCommandInsideIsUnquotedExactly(String command) {
        String quoted = "'" + command.replace("'", "'\"'\"'") + "'";
        assertThat(inner(envelope("exec '/bin/bash' -c " + quoted)).map(JudgeRequest::command)).as(command).contains(command);
    }

    @Test
    void theShellItExecsGivesTheDialectAndTheSnapshotThePath() throws Exception {
        assertThat(inner(envelope("exec '/usr/bin/zsh' -c 'ls'")).map(JudgeRequest::dialect)).contains(Dialect.ZSH);
        assertThat(inner(envelope("exec '/bin/sh' -c 'ls'")).map(JudgeRequest::dialect)).contains(Dialect.SH);
        Files.writeString(site.codexSnapshot, "# Snapshot file\ndeclare -x HOME=\"" + site.home + "\"\ndeclare -x OLDPWD\n"
                + "declare -x PATH=\"/home/me/bin:/usr/bin\"\n");
        assertThat(inner(captured).orElseThrow().env().get("PATH")).isEqualTo(site.codexPath + ":/home/me/bin:/usr/bin");
        Files.writeString(site.codexSnapshot, "# Snapshot file\ndeclare -x HOME=\"/x\"\n");
        assertThat(inner(captured)).as("a variable the agent's environment has otherwise").isEmpty();
        Files.writeString(site.codexSnapshot, "# Snapshot file\ndeclare -x LD_PRELOAD=\"/tmp/x.so\"\n");
        assertThat(inner(captured)).as("a variable the agent's environment does not have").isEmpty();
        Files.writeString(site.codexSnapshot, "# Snapshot file\nls() { rm -rf ~; }\nalias ls='rm -rf ~'\n");
        assertThat(inner(captured).map(JudgeRequest::command)).as("functions and aliases stay in the shell that execs")
                .contains("ls -la");
        Files.writeString(site.codexSnapshot, "# Snapshot file\nexec() { rm -rf ~; }\n");
        assertThat(inner(captured)).as("a function the envelope runs after sourcing").isEmpty();
        Files.writeString(site.codexSnapshot, "# Snapshot file\ncurl -s 127.0.0.1:9 | sh\n");
        assertThat(inner(captured)).as("a command run by sourcing").isEmpty();
        Files.writeString(site.codexSnapshot, "declare -x PATH=\"$(rm -rf ~)\"\n");
        assertThat(inner(captured)).as("a PATH the judge cannot read").isEmpty();
        Files.delete(site.codexSnapshot);
        assertThat(inner(captured).orElseThrow().env().get("PATH")).isEqualTo(site.codexPath + ":/usr/bin:/bin");
    }

    @Test
    void anExportOrUnsetOfAnotherVariableThanTheOneSavedIsNotRecognised() {
        String export = "export CODEX_VERSION=\"${__CODEX_SNAPSHOT_OVERRIDE_6}\"";
        assertThat(captured).contains(export);
        assertThat(inner(captured.replace(export, "export LD_PRELOAD=\"${__CODEX_SNAPSHOT_OVERRIDE_6}\""))).isEmpty();
        assertThat(inner(captured.replace(export, "export CODEX_VERSION=\"${__CODEX_SNAPSHOT_OVERRIDE_5}\""))).isEmpty();
        assertThat(inner(captured.replace("else builtin unset CODEX_VERSION 2>/dev/null || command unset CODEX_VERSION;",
                "else builtin unset CODEX_VERSION 2>/dev/null || command unset HOME;"))).isEmpty();
        assertThat(inner(captured.replace("__CODEX_SNAPSHOT_OVERRIDE_6=\"${CODEX_VERSION-}\"",
                "__CODEX_SNAPSHOT_OVERRIDE_6=\"${LD_PRELOAD-}\""))).as("saved from another variable").isEmpty();
        assertThat(inner(captured.replace("__CODEX_SNAPSHOT_OVERRIDE_SET_6=\"${CODEX_VERSION+x}\"",
                "__CODEX_SNAPSHOT_OVERRIDE_SET_7=\"${CODEX_VERSION+x}\""))).as("out of order").isEmpty();
        String proxy = "export ALL_PROXY=\"${__CODEX_SNAPSHOT_PROXY_OVERRIDE_0}\"";
        assertThat(inner(captured.replace(proxy, "export BASH_ENV=\"${__CODEX_SNAPSHOT_PROXY_OVERRIDE_0}\""))).isEmpty();
    }

    @ParameterizedTest
    @ValueSource(strings = {"rm -rf x\n%s", "%s\nrm -rf x", "%s; rm -rf x", "%s 'extra'", "%s\n", " %s"})
    void anythingAroundTheEnvelopeIsNotRecognised(String around) {
        assertThat(inner(around.formatted(captured))).isEmpty();
    }

    @Test
    void anExtraOrChangedLineInsideIsNotRecognised() {
        assertThat(inner(captured.replace("\n\nif . '", "\nrm -rf x\n\nif . '"))).isEmpty();
        assertThat(inner(captured.replace("then :; fi\n", "then :; fi\nrm -rf x\n"))).isEmpty();
        assertThat(inner(captured.replace("fi\nif [ -n \"${PATH:-}\"", "fi\nrm -rf x\nif [ -n \"${PATH:-}\""))).isEmpty();
        assertThat(inner(captured.replace(">/dev/null 2>&1; then :; fi", ">/dev/null 2>&1; then rm -rf x; fi"))).isEmpty();
        assertThat(inner(captured.replace("else export PATH='", "else export PATH='/tmp/x:"))).isEmpty();
    }

    @ParameterizedTest
    @ValueSource(strings = {"exec '/tmp/evil/bash' -c 'ls'", "exec '/home/u/bin/bash' -c 'ls'", "exec '/bin/python3' -c 'ls'",
            "exec '/bin/bash' -c 'ls' 'x'", "exec '/bin/bash' -lc 'ls'", "exec /bin/bash -c 'ls'", "exec '/bin/bash' -c \"ls\"",
            "exec '/bin/bash' -c 'ls'; rm -rf x", "exec '/bin/bash' -c 'ls' $(rm -rf x)", "exec '/bin/bash' -c 'ls"})
    void anotherExecIsNotRecognised(String exec) {
        assertThat(inner(envelope(exec))).as(exec).isEmpty();
    }

    @Test
    void aSnapshotOrCodexPathAnywhereElseIsNotRecognised() throws Exception {
        String snapshot = site.codexSnapshot.toString();
        assertThat(inner(captured.replace(snapshot, "/tmp/x.sh"))).isEmpty();
        assertThat(inner(captured.replace(snapshot, site.home + "/.codex/shell_snapshots/../x.sh"))).isEmpty();
        assertThat(inner(captured.replace(snapshot, site.home + "/.codex/shell_snapshots/not-a-uuid.1.sh"))).isEmpty();
        String codexPath = site.codexPath.toString();
        assertThat(inner(captured.replace(codexPath, "/tmp/evil/codex-path"))).isEmpty();
        assertThat(inner(captured.replace(codexPath, "/tmp/node_modules/@openai/codex-linux-x64/vendor/x86_64-unknown-linux-musl/codex-path")))
                .isEmpty();
        site.env.remove("CODEX_MANAGED_PACKAGE_ROOT");
        assertThat(inner(captured)).as("no npm install named").isEmpty();
        site.env.put("CODEX_MANAGED_PACKAGE_ROOT", site.install.resolve("node_modules/@openai/codex").toString());
        Files.delete(site.codexSnapshot);
        Files.createSymbolicLink(site.codexSnapshot, site.home.resolve(".bashrc"));
        assertThat(inner(captured)).as("a linked snapshot").isEmpty();
        Files.delete(site.codexSnapshot);
        Files.delete(site.codexPath);
        Files.createSymbolicLink(site.codexPath, site.root);
        assertThat(inner(captured)).as("a linked codex-path").isEmpty();
    }

    @Test
    void aCustomCodexHomeHoldsTheSnapshots() throws Exception {
        Path codexHome = Files.createDirectories(site.root.resolve("codex-home"));
        site.env.put("CODEX_HOME", codexHome.toString());
        assertThat(inner(captured)).as("no longer in CODEX_HOME").isEmpty();
        String moved = captured.replace(site.home + "/.codex", codexHome.toString());
        assertThat(inner(moved)).isPresent();
    }

    @Test
    void itsProbesAreRecognisedOnlyExactlyAndOnlyForCodex() {
        List<String> texts = site.captured("codex");
        String capture = texts.get(0);
        String check = texts.get(3);
        assertThat(Envelopes.unwrap("codex", site.request(capture))).map(Envelopes.Unwrapped::isProbe).contains(true);
        assertThat(Envelopes.unwrap("codex", site.request(check))).map(Envelopes.Unwrapped::isProbe).contains(true);
        assertThat(Envelopes.unwrap("codex", site.request(capture + "rm -rf ~\n"))).isEmpty();
        assertThat(Envelopes.unwrap("codex", site.request(capture.replace("declare -f\n", "rm -rf ~\n")))).isEmpty();
        assertThat(Envelopes.unwrap("codex", site.request(check + "; rm -rf x"))).isEmpty();
        assertThat(Envelopes.unwrap("codex", site.request(check.replace(site.home + "/.codex", "/tmp")))).isEmpty();
        assertThat(Envelopes.unwrap("codex", site.request("set -e; . \"$HOME/.bashrc\""))).isEmpty();
        assertThat(Envelopes.unwrap("codex", site.request("env"))).isEmpty();
        for (String agent : List.of("claude-code", "gemini-cli", "qwen-code")) {
            assertThat(Envelopes.unwrap(agent, site.request(capture))).as(agent).isEmpty();
            assertThat(Envelopes.unwrap(agent, site.request(check))).as(agent).isEmpty();
        }
    }
}
