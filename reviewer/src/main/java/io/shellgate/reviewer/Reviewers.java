package io.shellgate.reviewer;

import io.shellgate.reviewer.internal.ReviewPipeline;
import io.shellgate.reviewer.model.Reviewer;
import io.shellgate.rules.Policy;
import java.util.Map;

/** Creates reviewers. */
public final class Reviewers {

    private Reviewers() {}

    /**
     * The review pipeline for {@code policy}, configured by the policy's review settings and by
     * {@code env} (the {@code SHELLGATE_LLM_*} variables, {@code XDG_STATE_HOME}, {@code HOME}).
     */
    public static Reviewer create(Policy policy, Map<String, String> env) {
        return new ReviewPipeline(policy, env);
    }
}
