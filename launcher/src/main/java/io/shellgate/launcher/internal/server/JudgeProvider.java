package io.shellgate.launcher.internal.server;

import io.shellgate.judge.Judge;
import io.shellgate.judge.Judges;
import io.shellgate.reviewer.Reviewer;
import io.shellgate.reviewer.Reviewers;
import io.shellgate.rules.Layer;
import io.shellgate.rules.Policy;
import io.shellgate.rules.PolicyException;
import io.shellgate.rules.PolicyLoader;
import io.shellgate.rules.PolicySource;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Judges for the policies that apply in a directory, built once per distinct set of policy file
 * contents: a file that changes gives a new key, so edits take effect on the next request.
 */
public final class JudgeProvider {

    private static final int MAX_CACHED = 32;

    private final Path explicit;
    private final Map<String, Loaded> cache = new LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Loaded> eldest) {
            return size() > MAX_CACHED;
        }
    };

    public JudgeProvider(Path explicit) {
        this.explicit = explicit;
    }

    /**
     * A policy in effect, its judge, and its review pipeline. The pipeline is configured by this
     * process's own environment, never by a request's: a command's environment must not be able
     * to turn on LLM approval or move the audit log.
     */
    public record Loaded(Policy policy, Judge judge, Reviewer reviewer) {}

    /** The judge for a request made in {@code cwd} with {@code env}. */
    public Judge judge(Path cwd, Map<String, String> env) throws PolicyException {
        return load(cwd, env).judge();
    }

    /** The policy in effect for a request made in {@code cwd} with {@code env}, and its judge. */
    public Loaded load(Path cwd, Map<String, String> env) throws PolicyException {
        List<PolicySource> sources = PolicyLoader.discover(cwd, env, explicit);
        StringBuilder key = new StringBuilder();
        for (PolicySource s : sources) {
            key.append(s.layer()).append('\u0000').append(s.name()).append('\u0000');
            // the built-in text never changes while this process runs
            key.append(s.layer() == Layer.DEFAULT ? "" : s.text()).append('\u0001');
        }
        String k = key.toString();
        synchronized (cache) {
            Loaded cached = cache.get(k);
            if (cached != null) {
                return cached;
            }
        }
        Policy policy = PolicyLoader.load(sources, env.get("HOME"));
        Loaded loaded = new Loaded(policy, Judges.create(policy), Reviewers.create(policy, System.getenv()));
        synchronized (cache) {
            cache.put(k, loaded);
        }
        return loaded;
    }
}
