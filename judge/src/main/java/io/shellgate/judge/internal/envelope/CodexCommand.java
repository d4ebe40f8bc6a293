package io.shellgate.judge.internal.envelope;

import com.google.re2j.Matcher;
import com.google.re2j.Pattern;
import io.shellgate.judge.Dialect;
import io.shellgate.judge.Envelopes;
import io.shellgate.judge.JudgeRequest;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Codex 0.169's command envelope once its shell snapshot is ready: {@link CodexPreamble}, then
 * {@code exec 'SHELL' -c 'COMMAND'}. (Before that, and when the model picks another shell, Codex
 * runs {@code SHELL -lc 'COMMAND'} or {@code SHELL -c 'COMMAND'}: the text is then the command
 * itself, with no envelope to take off.)
 *
 * <p>The command runs in a new shell whose PATH is Codex's {@code codex-path} folder, then the PATH
 * the snapshot sets (or the agent's own when the snapshot sets none): the inner request carries
 * that PATH, so the judge resolves programs as they will be found.
 */
final class CodexCommand implements Recognizer {

    static final String NAME = "codex 0.169 command";

    /**
     * Where the shell it execs may live. The model can name the shell Codex uses, and the program
     * exec'd here runs the command: a program of the model's own making must not be that shell.
     */
    private static final Set<Path> SYSTEM_BIN = Set.of(Path.of("/bin"), Path.of("/usr/bin"), Path.of("/usr/local/bin"),
            Path.of("/opt/homebrew/bin"));

    private static final Pattern EXEC = Pattern.compile("exec '(/[A-Za-z0-9_./+-]*/(bash|zsh|sh|dash))' -c (" + ShellWords.QUOTED + ")");

    @Override
    public Optional<Envelopes.Unwrapped> recognize(JudgeRequest request) {
        String text = request.command();
        if (!text.startsWith("__CODEX_SNAPSHOT_")) {
            return Optional.empty();
        }
        CodexPreamble p = CodexPreamble.read(text);
        if (p == null) {
            return Optional.empty();
        }
        Matcher exec = EXEC.matcher(text.substring(p.text().length()));
        Path snapshot = CodexPlaces.snapshot(p.snapshot(), "\\.[0-9]{1,20}\\.sh", request.env());
        if (!exec.matches() || !isSystemShell(exec.group(1)) || snapshot == null
                || !CodexPlaces.isCodexPath(p.codexPath(), request.env())) {
            return Optional.empty();
        }
        String inner = ShellWords.value(exec.group(3));
        Map<String, String> env = new HashMap<>(request.env());
        // a variable Codex restores gets the agent's value back after the snapshot; the command runs
        // in a new shell, which keeps the snapshot's exports but none of its functions or aliases
        SnapshotDefinitions.Read.Definitions sourced = inner == null ? null
                : SnapshotPath.sourced(snapshot, false, env, Set.copyOf(p.saved()));
        if (sourced == null) {
            return Optional.empty();
        }
        if (p.saved().contains("PATH")) {
            sourced = new SnapshotDefinitions.Read.Definitions(null, Map.of(), Set.of(), Map.of());
        }
        SnapshotPath.applyTo(sourced, env, p.codexPath());
        Dialect dialect = switch (exec.group(2)) {
            case "zsh" -> Dialect.ZSH;
            case "bash" -> Dialect.BASH;
            default -> Dialect.SH;
        };
        return Optional.of(new Envelopes.Unwrapped(NAME, new JudgeRequest(inner, dialect, request.cwd(), env, List.of(), true)));
    }

    private static boolean isSystemShell(String text) {
        Path shell = AgentFiles.absolute(text);
        return shell != null && SYSTEM_BIN.contains(shell.getParent());
    }
}
