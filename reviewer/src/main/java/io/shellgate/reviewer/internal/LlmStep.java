package io.shellgate.reviewer.internal;

import io.shellgate.reviewer.model.Decision;
import io.shellgate.reviewer.model.ReviewRequest;
import io.shellgate.reviewer.model.Step;
import io.shellgate.reviewer.internal.llm.LlmConfig;
import io.shellgate.reviewer.internal.llm.LlmOpinion;
import io.shellgate.reviewer.internal.llm.LlmReviewer;
import io.shellgate.reviewer.internal.llm.Outcome;
import io.shellgate.rules.Policy;
import io.shellgate.rules.Tier;
import java.lang.System.Logger.Level;
import java.util.Map;
import java.util.Optional;

/**
 * The LLM reviewer step. It answers only asks: an approval counts when approval by LLM is on and
 * the risk is below the configured maximum; a refusal decides; anything else (escalate, an error,
 * a timeout) leaves the ask to a person. It never sees a deny.
 */
final class LlmStep {

    private static final System.Logger LOG = System.getLogger("io.shellgate.reviewer");

    private final LlmConfig config;
    private final String problem;
    private volatile LlmReviewer reviewer;

    private LlmStep(LlmConfig config, String problem) {
        this.config = config;
        this.problem = problem;
    }

    /** The step for a policy's {@code [review.llm]} table and this process's environment. */
    static LlmStep create(Policy policy, Map<String, String> env) {
        if (!policy.fleet().llmReviewer()) {
            return new LlmStep(null, null);
        }
        try {
            return new LlmStep(LlmConfig.resolve(policy.review().llm(), unpinned(env, policy.fleet().pinnedLlm())).orElse(null), null);
        } catch (IllegalArgumentException e) {
            return new LlmStep(null, e.getMessage());
        }
    }

    /** The environment without the {@code SHELLGATE_LLM_*} variables of keys the managed policy pinned. */
    private static Map<String, String> unpinned(Map<String, String> env, java.util.Set<String> pinned) {
        if (pinned.isEmpty()) {
            return env;
        }
        Map<String, String> out = new java.util.HashMap<>(env);
        for (String key : pinned) {
            String name = key.equals("api-key-env") ? "API_KEY" : key.toUpperCase(java.util.Locale.ROOT).replace('-', '_');
            out.remove("SHELLGATE_LLM_" + name);
        }
        return out;
    }

    /** Why the configured reviewer cannot be used, or null. */
    String problem() {
        return problem;
    }

    /** The LLM's decision on an ask, if it makes one within {@code limit} (or its own time-out, when shorter). */
    Optional<Decision> review(ReviewRequest r, java.time.Duration limit) {
        if (problem != null) {
            LOG.log(Level.WARNING, "shellgate: the LLM reviewer is not used: " + problem);
            return Optional.empty();
        }
        if (config == null || r.verdict().tier() != Tier.ASK) {
            return Optional.empty();
        }
        LlmReviewer llm = reviewer;
        if (llm == null) {
            // built on the first ask: a process that never asks never loads LangChain4j
            synchronized (this) {
                if (reviewer == null) {
                    reviewer = new LlmReviewer(config);
                }
                llm = reviewer;
            }
        }
        java.time.Duration within = config.timeout().compareTo(limit) < 0 ? config.timeout() : limit;
        r.progress().waiting(Step.LLM, within);
        LlmOpinion opinion = llm.review(r.request(), r.verdict(), within);
        if (opinion.approves(config)) {
            return Optional.of(new Decision(true, Step.LLM, "approved by the LLM reviewer (risk "
                    + opinion.risk().id() + "): " + opinion.reason(), r.verdict()));
        }
        if (opinion.outcome() == Outcome.REFUSE) {
            return Optional.of(new Decision(false, Step.LLM, "refused by the LLM reviewer (risk " + opinion.risk().id() + "): "
                    + opinion.reason(), r.verdict()));
        }
        return Optional.empty();
    }
}
