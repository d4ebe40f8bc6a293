package io.shellgate.judge.internal.envelope;

import io.shellgate.judge.Envelopes;
import io.shellgate.judge.JudgeRequest;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The table of known agents and the forms each one's shell texts take. An agent that runs the
 * model's command as it is (Qwen Code) has no forms: its commands are judged as they are.
 */
public final class AgentTable {

    /** Longer texts are not envelopes of any known agent (Codex's is about 40 KB plus the command). */
    private static final int MAX_CHARS = 4 << 20;

    private static final Map<String, List<Recognizer>> FORMS = Map.of(
            "claude-code", List.of(new ClaudeCommand(), new ClaudeProbes()),
            "gemini-cli", List.of(new GeminiCommand()),
            "codex", List.of(new CodexCommand(), new CodexProbes()),
            "qwen-code", List.of(),
            "copilot-cli", List.of(new CopilotProbe()));

    private AgentTable() {}

    /** The agent ids the table knows. */
    public static List<String> agents() {
        return FORMS.keySet().stream().sorted().toList();
    }

    /** See {@link Envelopes#unwrap}. */
    public static Optional<Envelopes.Unwrapped> unwrap(String agent, JudgeRequest request) {
        List<Recognizer> forms = agent == null ? null : FORMS.get(agent);
        if (forms == null || request == null || request.argv() != null || !request.dialect().isPosix()
                || request.command().length() > MAX_CHARS) {
            return Optional.empty();
        }
        try {
            for (Recognizer r : forms) {
                Optional<Envelopes.Unwrapped> u = r.recognize(request);
                if (u.isPresent()) {
                    return u;
                }
            }
        } catch (RuntimeException | StackOverflowError e) {
            // a failed check recognises nothing: the whole text is then judged as usual
            return Optional.empty();
        }
        return Optional.empty();
    }
}
