package io.shellgate.reviewer;

import io.shellgate.judge.Judge;
import io.shellgate.judge.JudgeRequest;
import io.shellgate.judge.Judges;
import io.shellgate.reviewer.internal.export.DecisionClock;
import io.shellgate.rules.FileFacts;
import io.shellgate.rules.Layer;
import io.shellgate.rules.Policy;
import io.shellgate.rules.PolicyException;
import io.shellgate.rules.PolicyLoader;
import io.shellgate.rules.PolicySource;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The judge and the review pipeline for the policies that apply in a directory, built once per
 * distinct set of policy file contents: a file that changes gives a new key, so edits take effect
 * on the next command. Shared by every entry point that judges in its own process.
 */
public final class Gates {

    private static final int MAX_CACHED = 32;

    private final Path explicit;
    private final Map<String, String> reviewEnv;
    private final Map<String, Gate> cache = new LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Gate> eldest) {
            return size() > MAX_CACHED;
        }
    };

    /**
     * @param explicit a policy file on top of the others ({@code --policy}), or null
     * @param reviewEnv the environment that configures review (the state directory, the
     *     {@code SHELLGATE_LLM_*} variables): the process's own, never a command's, so that a
     *     command cannot turn on LLM approval or move the audit log
     */
    public Gates(Path explicit, Map<String, String> reviewEnv) {
        this.explicit = explicit;
        this.reviewEnv = Map.copyOf(reviewEnv);
    }

    /**
     * The file questions, with their answers, that an allow {@code gate}'s judge reached for
     * {@code request} rests on: those of finding the policies in {@code cwd} with {@code env}
     * (found again through a recorder: the same files with the same contents), then the judge's
     * ({@link Judge#facts}). Null when the judge has none, when the policies are not the gate's
     * any more, or when one was changed too recently for its time stamps to tell a later change.
     */
    public List<FileFacts.Fact> facts(Path cwd, Map<String, String> env, Gate gate, JudgeRequest request) {
        List<FileFacts.Fact> judged = gate.judge().facts(request);
        if (judged == null) {
            return null;
        }
        FileFacts files = FileFacts.recording();
        String k;
        try {
            k = key(PolicyLoader.discover(cwd, env, explicit, files));
        } catch (PolicyException e) {
            return null;
        }
        List<FileFacts.Fact> found = files.facts();
        synchronized (cache) {
            if (found == null || cache.get(k) != gate) {
                return null;
            }
        }
        List<FileFacts.Fact> all = new ArrayList<>(found);
        all.addAll(judged);
        return all;
    }

    private static String key(List<PolicySource> sources) {
        StringBuilder key = new StringBuilder();
        for (PolicySource s : sources) {
            key.append(s.layer()).append('\u0000').append(s.name()).append('\u0000');
            // the built-in text never changes while this process runs
            key.append(s.layer() == Layer.DEFAULT ? "" : s.text()).append('\u0001');
        }
        return key.toString();
    }

    /** A policy in effect, its judge, and its review pipeline. */
    public record Gate(Policy policy, Judge judge, Reviewer reviewer) {}

    /** The gate for a command in {@code cwd}, whose user and project policy files are found from {@code env}. */
    public Gate load(Path cwd, Map<String, String> env) throws PolicyException {
        List<PolicySource> sources = PolicyLoader.discover(cwd, env, explicit);
        String k = key(sources);
        synchronized (cache) {
            Gate cached = cache.get(k);
            if (cached != null) {
                return cached;
            }
        }
        Policy policy = PolicyLoader.load(sources, env.get("HOME"));
        Gate gate = new Gate(policy, DecisionClock.timed(Judges.create(policy)), Reviewers.create(policy, reviewEnv));
        synchronized (cache) {
            cache.put(k, gate);
        }
        return gate;
    }
}
