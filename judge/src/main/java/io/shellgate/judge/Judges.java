package io.shellgate.judge;

import io.shellgate.judge.internal.analysis.ExampleCheck;
import io.shellgate.judge.internal.analysis.JudgeEngine;
import io.shellgate.judge.internal.syntax.ShellParser;
import io.shellgate.judge.internal.treesitter.TreeSitterBashParser;
import io.shellgate.rules.Layer;
import io.shellgate.rules.Policy;
import io.shellgate.rules.PolicyException;
import io.shellgate.rules.PolicyLoader;
import java.util.List;

/**
 * Creates judges. Creating a judge runs the examples of every policy entry that does not come
 * from the built-in default (whose examples the build checks), and refuses a policy whose
 * examples fail.
 */
public final class Judges {

    private static final ShellParser PARSER = new TreeSitterBashParser();

    private Judges() {}

    /** A judge for {@code policy}, after its non-default examples pass. */
    public static Judge create(Policy policy) throws PolicyException {
        ExampleCheck.verify(policy, PARSER, List.of(Layer.MANAGED, Layer.USER, Layer.PROJECT, Layer.EXPLICIT));
        return JudgeEngine.create(policy, PARSER);
    }

    /** A judge for the built-in default policy. */
    public static Judge defaults() {
        try {
            return JudgeEngine.create(PolicyLoader.defaults(), PARSER);
        } catch (PolicyException e) {
            throw new IllegalStateException("the built-in default policy is invalid:\n" + e.getMessage(), e);
        }
    }

    /** tree-sitter's own parse tree of a command line, as an S-expression (for {@code explain --tree}). */
    public static String treeSitterTree(String command) {
        return new io.shellgate.judge.internal.treesitter.JtreesitterBashParser().sexp(command);
    }

    /** The judge's syntax tree of a command line, in its compact text form. */
    public static String syntaxTree(String command) {
        return io.shellgate.judge.internal.syntax.ScriptPrinter.print(PARSER.parse(command, 1_000_000_000L));
    }

    /** Runs the examples of every entry, the built-in default's included. */
    public static void verifyAllExamples(Policy policy) throws PolicyException {
        ExampleCheck.verify(policy, PARSER, List.of(Layer.values()));
    }
}
