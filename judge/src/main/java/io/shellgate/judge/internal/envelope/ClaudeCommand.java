package io.shellgate.judge.internal.envelope;

import com.google.re2j.Matcher;
import com.google.re2j.Pattern;
import io.shellgate.judge.Envelopes;
import io.shellgate.judge.JudgeRequest;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Claude Code 2.1's command envelope (bash or zsh, without {@code CLAUDE_CODE_SHELL_PREFIX}):
 *
 * <pre>
 * source SNAPSHOT 2>/dev/null || true &amp;&amp; \builtin shopt -u extglob 2>/dev/null || true
 *   &amp;&amp; { \builtin unalias -- 'which'; … } >/dev/null 2>&amp;1 || true &amp;&amp; { … 'unsetenv' … } … || true
 *   &amp;&amp; eval 'COMMAND' &lt; /dev/null &amp;&amp; pwd -P >| TMP/claude-ID-cwd
 * </pre>
 *
 * The {@code source} part is missing when Claude Code has no snapshot, the {@code which} part
 * when a feature of Claude Code is off; under zsh the {@code shopt} part is a {@code setopt}.
 *
 * <p>The snapshot runs before every command, and the agent's own edit tool can rewrite it: it is
 * recognised only when sourcing it runs nothing ({@link SnapshotDefinitions}), and the command is
 * judged with the snapshot's aliases expanded ({@link Shadowing}).
 */
final class ClaudeCommand implements Recognizer {

    static final String NAME = "claude-code 2.1 command";

    private static final String SHOPT = "\\builtin shopt -u extglob 2>/dev/null || true";
    private static final String SETOPT = "\\builtin setopt NO_EXTENDED_GLOB NO_BARE_GLOB_QUAL NO_BRACE_CCL "
            + "NO_MAGIC_EQUAL_SUBST NO_EQUALS 2>/dev/null || true";
    private static final String EITHER = "{ \\builtin shopt -u extglob || \\builtin setopt NO_EXTENDED_GLOB "
            + "NO_BARE_GLOB_QUAL NO_BRACE_CCL NO_MAGIC_EQUAL_SUBST NO_EQUALS; } >/dev/null 2>&1 || true";

    private static final Pattern FORM = Pattern.compile(
            "(?:" + q("source ") + "(" + ShellWords.WORD + ")" + q(" 2>/dev/null || true && ") + ")?"
            + "(?:" + q(SHOPT) + "|" + q(SETOPT) + "|" + q(EITHER) + ")" + q(" && ")
            + "(?:" + q(unalias("which")) + q(" && ") + ")?"
            + q(unalias("unsetenv")) + q(" && eval ")
            + "(" + ShellWords.WORD + ")" + "(?:" + q(" < /dev/null") + ")?"
            + q(" && pwd -P >| ") + "(" + ShellWords.WORD + ")");

    private static final Pattern SNAPSHOT = Pattern.compile("snapshot-(?:bash|zsh|sh)-[0-9]{1,20}-[a-z0-9]{1,16}\\.sh");
    private static final Pattern CWD_FILE = Pattern.compile("claude-[0-9a-f]{1,16}-cwd");

    @Override
    public Optional<Envelopes.Unwrapped> recognize(JudgeRequest request) {
        Matcher m = FORM.matcher(request.command());
        if (!m.matches()) {
            return Optional.empty();
        }
        Map<String, String> env = new HashMap<>(request.env());
        SnapshotDefinitions.Read.Definitions sourced = null;
        if (m.group(1) != null) {
            Path snapshot = snapshot(ShellWords.value(m.group(1)), env);
            sourced = snapshot == null ? null : SnapshotPath.sourced(snapshot, true, env, Set.of());
            if (sourced == null) {
                return Optional.empty();
            }
            SnapshotPath.applyTo(sourced, env, null);
        }
        if (!isCwdFile(ShellWords.value(m.group(3)), env)) {
            return Optional.empty();
        }
        String inner = ShellWords.value(m.group(2));
        if (inner == null || !InnerGuard.afterEval(inner)) {
            return Optional.empty();
        }
        if (sourced != null) {
            // the snapshot's aliases and functions are in force in the eval's text
            inner = Shadowing.apply(inner, sourced.functions(), sourced.aliases());
            if (inner == null || !InnerGuard.afterEval(inner)) {
                return Optional.empty();
            }
        }
        return Optional.of(new Envelopes.Unwrapped(NAME, new JudgeRequest(
                inner, request.dialect(), request.cwd(), env, request.positional(), request.freshShell())));
    }

    /** Claude Code's snapshot file, in its config folder, when the text names exactly that; else null. */
    static Path snapshot(String text, Map<String, String> env) {
        Path file = AgentFiles.absolute(text);
        Path home = AgentFiles.home(env);
        if (file == null || home == null) {
            return null;
        }
        String configured = env.get("CLAUDE_CONFIG_DIR");
        Path config = configured == null || configured.isEmpty() ? home.resolve(".claude") : AgentFiles.absolute(configured);
        if (config == null || !file.getParent().equals(config.resolve("shell-snapshots"))
                || !SNAPSHOT.matcher(file.getFileName().toString()).matches()) {
            return null;
        }
        return AgentFiles.absentOrOwnBelow(configured == null || configured.isEmpty() ? home : config, file) ? file : null;
    }

    private static boolean isCwdFile(String text, Map<String, String> env) {
        Path file = AgentFiles.absolute(text);
        return file != null && AgentFiles.tempDirs(env, "CLAUDE_CODE_TMPDIR").contains(file.getParent())
                && CWD_FILE.matcher(file.getFileName().toString()).matches() && AgentFiles.absentOrOwn(file, false);
    }

    private static String unalias(String name) {
        return "{ \\builtin unalias -- '" + name + "'; \\builtin unset -f -- '" + name + "'; } >/dev/null 2>&1 || true";
    }

    private static String q(String literal) {
        return Pattern.quote(literal);
    }
}
