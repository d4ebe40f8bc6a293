package io.shellgate.judge.internal.envelope;

import io.shellgate.judge.Envelopes;
import io.shellgate.judge.JudgeRequest;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;

/**
 * What Claude Code 2.1 runs through its shell at start, before the model's first command: the
 * environment probe {@code env}, and the script that writes its shell snapshot (the form for a
 * user without {@code ~/.bashrc}: {@code claude-snapshot-bash.txt}). They are allowed as they are
 * and only in these exact texts; a model's command never arrives in this form, since Claude Code
 * wraps each one in its command envelope.
 */
final class ClaudeProbes implements Recognizer {

    static final String ENV = "claude-code 2.1 environment probe";
    static final String SNAPSHOT = "claude-code 2.1 snapshot script";

    /** RE2 for the Claude Code program its snapshot's functions run. */
    static final String CLAUDE_RE = "/[A-Za-z0-9_./@+-]*/node_modules/@anthropic-ai/claude-code/bin/claude\\.exe";
    /** RE2 for the home folder its snapshot's functions name. */
    static final String HOME_RE = "/[A-Za-z0-9_./@+-]*";

    private static final Template SCRIPT = Template.load("claude-snapshot-bash.txt", Map.of(
            "SNAPSHOT", ShellWords.WORD,
            "MARKER", "[a-z0-9]{1,16}",
            "CLAUDE", CLAUDE_RE,
            "HOME", HOME_RE,
            "PATH", ShellWords.WORD));

    @Override
    public Optional<Envelopes.Unwrapped> recognize(JudgeRequest request) {
        if (request.command().equals("env")) {
            return Optional.of(new Envelopes.Unwrapped(ENV, null));
        }
        if (!request.command().startsWith("SNAPSHOT_FILE=")) {
            return Optional.empty();
        }
        Map<String, String> parts = SCRIPT.match(request.command());
        if (parts == null || !snapshotScriptParts(parts, request.env())) {
            return Optional.empty();
        }
        return Optional.of(new Envelopes.Unwrapped(SNAPSHOT, null));
    }

    private static boolean snapshotScriptParts(Map<String, String> parts, Map<String, String> env) {
        Path home = AgentFiles.home(env);
        Path claude = AgentFiles.absolute(parts.get("CLAUDE"));
        String path = ShellWords.value(parts.get("PATH"));
        Path snapshot = ClaudeCommand.snapshot(ShellWords.value(parts.get("SNAPSHOT")), env);
        // the functions it writes run this program for rg, find and grep: Claude Code's own, one path
        // throughout (the template's suffix and the equal-values check), beside the native install in HOME
        return home != null && home.toString().equals(parts.get("HOME")) && claude != null && snapshot != null
                && path != null && path.indexOf('\n') < 0;
    }
}
