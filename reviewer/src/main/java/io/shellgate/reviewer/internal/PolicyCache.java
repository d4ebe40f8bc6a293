package io.shellgate.reviewer.internal;

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
 * The policies that apply in a directory and their judge, built once per distinct set of policy
 * file contents in this process (a file that changes gives a new key, so edits take effect on the
 * next command). Shared by every gate of the process: a judge depends on the policies' text alone.
 */
public final class PolicyCache {

    private static final int MAX_CACHED = 32;
    private static final Map<String, Loaded> CACHE = new LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Loaded> eldest) {
            return size() > MAX_CACHED;
        }
    };

    /** A policy in effect and its judge. */
    public record Loaded(Policy policy, Judge judge) {}

    private PolicyCache() {}

    /**
     * The policy for a command in {@code cwd}: the user file found from {@code env} (the gate's
     * own environment), the project's found from {@code cwd}, and {@code explicit}.
     */
    public static Loaded load(Path cwd, Map<String, String> env, Path explicit) throws PolicyException {
        List<PolicySource> sources = PolicyLoader.discover(cwd, env, explicit);
        String k = key(sources);
        synchronized (CACHE) {
            Loaded cached = CACHE.get(k);
            if (cached != null) {
                return cached;
            }
        }
        Policy policy = PolicyLoader.load(sources, env.get("HOME"));
        Loaded loaded = new Loaded(policy, DecisionClock.timed(Judges.create(policy)));
        synchronized (CACHE) {
            Loaded raced = CACHE.putIfAbsent(k, loaded);
            return raced == null ? loaded : raced;
        }
    }

    /**
     * The file questions, with their answers, that an allow {@code loaded}'s judge reached for
     * {@code request} rests on: those of finding the policies again (through a recorder: the same
     * files with the same contents), then the judge's ({@link Judge#facts}). Null when the judge
     * has none, when the policies are not {@code loaded}'s any more, or when one was changed too
     * recently for its time stamps to tell a later change.
     */
    public static List<FileFacts.Fact> facts(Path cwd, Map<String, String> env, Path explicit, Loaded loaded,
            JudgeRequest request) {
        List<FileFacts.Fact> judged = loaded.judge().facts(request);
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
        synchronized (CACHE) {
            if (found == null || CACHE.get(k) != loaded) {
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
}
