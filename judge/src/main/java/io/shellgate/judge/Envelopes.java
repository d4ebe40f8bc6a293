package io.shellgate.judge;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Agent envelopes: the exact texts known agents wrap around the command their model wrote
 * ({@code docs/envelopes.md} has the table). A text recognised as an agent's envelope yields the
 * command inside, to be judged instead of the whole text; the envelope's own parts are allowed
 * only in their exact known form, with their variable parts (snapshot files, temporary files,
 * install folders, exported variables) checked against the request's environment and the file
 * system. A text that is exactly one of the agent's start-up probes yields no command at all.
 *
 * <p>Anything else, including every text that differs from a known form by one character, is not
 * recognised: judge the whole text as usual. Never unwrap an inner command again: it is the
 * model's text, and an envelope written by the model is the model's command.
 */
public final class Envelopes {

    private Envelopes() {}

    /** The agent ids: {@code claude-code}, {@code codex}, {@code copilot-cli}, {@code gemini-cli}, {@code qwen-code}. */
    public static List<String> agents() {
        return Judges.PROVIDER.envelopeAgents();
    }

    /**
     * The envelope {@code request} is, for {@code agent}; empty when it is none of that agent's
     * known forms (or the agent is unknown, or the request is an argument vector or not a POSIX
     * shell's). Never throws: a check that cannot be made recognises nothing.
     */
    public static Optional<Unwrapped> unwrap(String agent, JudgeRequest request) {
        try {
            return Judges.PROVIDER.unwrap(agent, request);
        } catch (RuntimeException | LinkageError | StackOverflowError e) {
            // a table that cannot be read recognises nothing: the whole text is then judged as usual
            System.getLogger(Envelopes.class.getName()).log(System.Logger.Level.WARNING, "agent envelopes unavailable", e);
            return Optional.empty();
        }
    }

    /**
     * A recognised envelope.
     *
     * @param envelope which form it is, for audit lines and {@code explain} (e.g.
     *     {@code "claude-code 2.1 command"})
     * @param inner the command to judge instead of the whole text, in the environment it will
     *     run in (the agent's PATH after its snapshot, the shell the envelope runs it with); null
     *     when the whole text is a start-up probe of the agent, allowed as it is
     */
    public record Unwrapped(String envelope, JudgeRequest inner) {

        public Unwrapped {
            Objects.requireNonNull(envelope, "envelope");
        }

        /** Whether the text is an agent's start-up probe, with no command of the model inside. */
        public boolean isProbe() {
            return inner == null;
        }
    }
}
