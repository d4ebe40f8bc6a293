package io.shellgate.judge;

import io.shellgate.rules.Layer;
import io.shellgate.rules.Policy;
import io.shellgate.rules.PolicyException;
import io.shellgate.rules.PolicyLoader;
import java.util.List;
import java.util.ServiceLoader;

/**
 * Creates judges. Creating a judge runs the examples of every policy entry that does not come
 * from the built-in default (whose examples the build checks), and refuses a policy whose
 * examples fail.
 */
public final class Judges {

    /** The judge's implementation (see {@link JudgeProvider}); {@link Envelopes} reaches it here too. */
    static final JudgeProvider PROVIDER = ServiceLoader.load(JudgeProvider.class, JudgeProvider.class.getClassLoader())
            .findFirst()
            .orElseThrow(() -> new IllegalStateException("the judge's implementation is missing from the class path"
                    + " (META-INF/services/" + JudgeProvider.class.getName() + ")"));

    private Judges() {}

    /** A judge for {@code policy}, after its non-default examples pass. */
    public static Judge create(Policy policy) throws PolicyException {
        PROVIDER.verifyExamples(policy, List.of(Layer.MANAGED, Layer.USER, Layer.PROJECT, Layer.EXPLICIT));
        return PROVIDER.judge(policy);
    }

    /** A judge for the built-in default policy. */
    public static Judge defaults() {
        try {
            return PROVIDER.judge(PolicyLoader.defaults());
        } catch (PolicyException e) {
            throw new IllegalStateException("the built-in default policy is invalid:\n" + e.getMessage(), e);
        }
    }

    /** tree-sitter's own parse tree of a command line, as an S-expression (for {@code explain --tree}). */
    public static String treeSitterTree(String command) {
        return PROVIDER.treeSitterTree(command);
    }

    /** The judge's syntax tree of a command line, in its compact text form. */
    public static String syntaxTree(String command) {
        return PROVIDER.syntaxTree(command);
    }

    /** Runs the examples of every entry, the built-in default's included. */
    public static void verifyAllExamples(Policy policy) throws PolicyException {
        PROVIDER.verifyExamples(policy, List.of(Layer.values()));
    }
}
