package io.shellgate.judge.internal.envelope;

import io.shellgate.judge.Envelopes;
import io.shellgate.judge.JudgeRequest;
import java.util.Optional;

/** One form of one agent's text: it recognises that form exactly, or nothing. */
sealed interface Recognizer permits ClaudeCommand, ClaudeProbes, GeminiCommand, CodexCommand, CodexProbes,
        CopilotProbe {

    /** The envelope and what to judge instead, when {@code request} is exactly this form; else empty. */
    Optional<Envelopes.Unwrapped> recognize(JudgeRequest request);
}
