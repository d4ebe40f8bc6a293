package io.shellgate.judge.internal.analysis;

import io.shellgate.judge.Dialect;
import io.shellgate.judge.Reason;
import io.shellgate.judge.Verdict;
import io.shellgate.judge.internal.syntax.ShellParser;
import io.shellgate.rules.Layer;
import io.shellgate.rules.Policy;
import io.shellgate.rules.PolicyException;
import io.shellgate.rules.ReadOnlyCommand;
import io.shellgate.rules.Rule;
import io.shellgate.rules.RuleInfo;
import io.shellgate.rules.Tier;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/**
 * Runs the examples of policy entries on the fixed example machine, in the first dialect a rule
 * names (bash when it names none). A deny or ask rule matches
 * an example when the verdict gives a reason with its id; a read-only command matches when the
 * verdict is allow and names it; a wrapper matches when it was stripped.
 */
public final class ExampleCheck {

    private ExampleCheck() {}

    /**
     * Checks the examples of every entry from the given layers against the merged policy.
     *
     * @throws PolicyException listing each failing example with the location of its entry
     */
    public static void verify(Policy policy, ShellParser parser, List<Layer> layers) throws PolicyException {
        JudgeEngine judge = JudgeEngine.forExamples(policy, parser);
        List<String> problems = new ArrayList<>();
        for (RuleInfo entry : policy.entries()) {
            if (!layers.contains(entry.layer())) {
                continue;
            }
            Dialect dialect = dialect(entry);
            for (String example : entry.examples().match()) {
                Verdict v = judge.judge(JudgeEngine.exampleRequest(example, dialect));
                if (!matches(entry, v)) {
                    problems.add(entry.location() + ": " + entry.id() + ": the example \"" + example
                            + "\" must match, but shellgate judged it " + v.tier().id() + " (" + summary(v) + ")");
                }
            }
            for (String example : entry.examples().notMatch()) {
                Verdict v = judge.judge(JudgeEngine.exampleRequest(example, dialect));
                if (matches(entry, v)) {
                    problems.add(entry.location() + ": " + entry.id() + ": the example \"" + example
                            + "\" must not match, but it does (" + summary(v) + ")");
                }
            }
        }
        if (!problems.isEmpty()) {
            throw new PolicyException(problems);
        }
    }

    /** Examples are written in the rule's first dialect; bash for rules that name none. */
    private static Dialect dialect(RuleInfo entry) {
        if (entry instanceof Rule r && !r.dialects().isEmpty()) {
            Dialect d = Dialect.parse(r.dialects().getFirst());
            return d == null ? Dialect.BASH : d;
        }
        return Dialect.BASH;
    }

    static boolean matches(RuleInfo entry, Verdict v) {
        boolean named = v.reasons().stream().anyMatch(r -> r.rule().equals(entry.id()) && r.tier() == entry.tier());
        if (entry instanceof ReadOnlyCommand) {
            return named && v.tier() == Tier.ALLOW;
        }
        return named;
    }

    private static String summary(Verdict v) {
        return v.reasons().stream().map(Reason::rule).distinct().collect(Collectors.joining(", "));
    }
}
