package io.shellgate.judge;

import io.shellgate.rules.FileFacts;
import java.util.List;

/**
 * Decides allow, ask or deny for a command line. Implementations are thread-safe and never throw
 * for any input: what they cannot understand is answered with ask.
 */
public interface Judge {

    Verdict judge(JudgeRequest request);

    /**
     * The file questions, with their answers, that an allow this judge reached for
     * {@code request} rests on, for a client to ask again before it reuses the allow; null when
     * there is none or it rests on more than file questions (the default).
     */
    default List<FileFacts.Fact> facts(JudgeRequest request) {
        return null;
    }
}
