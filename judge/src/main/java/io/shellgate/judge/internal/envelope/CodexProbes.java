package io.shellgate.judge.internal.envelope;

import com.google.re2j.Matcher;
import com.google.re2j.Pattern;
import io.shellgate.judge.Envelopes;
import io.shellgate.judge.JudgeRequest;
import java.util.Optional;

/**
 * What Codex 0.169 runs through its shell at start to build its shell snapshot: the capture
 * script ({@code bash -lc}, {@code codex-snapshot-capture-bash.txt}: it reads the user's
 * {@code ~/.bashrc} and prints options, functions, aliases and exported variables), then
 * {@code set -e; . "CODEX_HOME/shell_snapshots/ID.tmp-N"} to check the file it wrote. Allowed as they
 * are, only in these exact texts.
 */
final class CodexProbes implements Recognizer {

    static final String CAPTURE = "codex 0.169 snapshot capture";
    static final String CHECK = "codex 0.169 snapshot check";

    private static final String CAPTURE_TEXT = Template.resource("codex-snapshot-capture-bash.txt");
    private static final Pattern CHECK_FORM = Pattern.compile("set -e; \\. \"([^\"\\\\$`\\n]*)\"");

    @Override
    public Optional<Envelopes.Unwrapped> recognize(JudgeRequest request) {
        String text = request.command();
        if (text.equals(CAPTURE_TEXT)) {
            return Optional.of(new Envelopes.Unwrapped(CAPTURE, null));
        }
        Matcher m = CHECK_FORM.matcher(text);
        if (m.matches() && CodexPlaces.snapshot(m.group(1), "\\.tmp-[0-9]{1,20}", request.env()) != null) {
            return Optional.of(new Envelopes.Unwrapped(CHECK, null));
        }
        return Optional.empty();
    }
}
