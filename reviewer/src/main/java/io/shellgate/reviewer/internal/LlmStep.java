package io.shellgate.reviewer.internal;

import io.shellgate.reviewer.Decision;
import io.shellgate.reviewer.ReviewRequest;
import io.shellgate.rules.Policy;
import java.util.Map;
import java.util.Optional;

/** The LLM reviewer step: empty when it is not configured or leaves the ask to a person. */
interface LlmStep {

    Optional<Decision> review(ReviewRequest request);

    static LlmStep create(Policy policy, Map<String, String> env) {
        return r -> Optional.empty();
    }
}
