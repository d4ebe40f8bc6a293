package io.shellgate.judge;

/**
 * Decides allow, ask or deny for a command line. Implementations are thread-safe and never throw
 * for any input: what they cannot understand is answered with ask.
 */
public interface Judge {

    Verdict judge(JudgeRequest request);
}
