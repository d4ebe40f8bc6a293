package io.shellgate.launcher.internal.server;

import io.shellgate.judge.Judge;
import io.shellgate.judge.JudgeRequest;
import io.shellgate.reviewer.Gates;
import io.shellgate.rules.FileFacts;
import io.shellgate.rules.PolicyException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * The launcher's judges: the policies that apply in a directory (found from a request's own
 * environment), reviewed with this process's environment.
 */
public final class JudgeProvider {

    private final Gates gates;

    public JudgeProvider(Path explicit) {
        this(explicit, System.getenv());
    }

    /** With {@code reviewEnv} instead of this process's environment configuring the review (state directory, LLM). */
    JudgeProvider(Path explicit, Map<String, String> reviewEnv) {
        this.gates = new Gates(explicit, reviewEnv);
    }

    /** The judge for a request made in {@code cwd} with {@code env}. */
    public Judge judge(Path cwd, Map<String, String> env) throws PolicyException {
        return load(cwd, env).judge();
    }

    /** The file facts an allow of {@code gate}'s judge for {@code request} rests on (see {@link Gates#facts}). */
    public List<FileFacts.Fact> facts(Path cwd, Map<String, String> env, Gates.Gate gate, JudgeRequest request) {
        return gates.facts(cwd, env, gate, request);
    }

    /** The policy in effect for a request made in {@code cwd} with {@code env}, its judge and its review. */
    public Gates.Gate load(Path cwd, Map<String, String> env) throws PolicyException {
        return gates.load(cwd, env);
    }
}
