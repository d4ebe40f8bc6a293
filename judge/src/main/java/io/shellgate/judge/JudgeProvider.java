package io.shellgate.judge;

import io.shellgate.rules.Layer;
import io.shellgate.rules.Policy;
import io.shellgate.rules.PolicyException;
import java.util.List;
import java.util.Optional;

/**
 * The judge's implementation, as the factories of this package ({@link Judges}, {@link Envelopes}) reach it: one
 * provider, in the judge's own jar ({@code META-INF/services}), found once with {@link java.util.ServiceLoader}.
 * This package holds the types every part of the judge uses; the provider lets it do so without depending on the
 * parts that implement them. Other modules call the factories, not this.
 */
public interface JudgeProvider {

    /** A judge for {@code policy}, its examples not run. */
    Judge judge(Policy policy) throws PolicyException;

    /** Runs the examples of the entries from {@code layers}; a policy whose examples fail is refused. */
    void verifyExamples(Policy policy, List<Layer> layers) throws PolicyException;

    /** tree-sitter's own parse tree of a command line, as an S-expression. */
    String treeSitterTree(String command);

    /** The judge's syntax tree of a command line, in its compact text form. */
    String syntaxTree(String command);

    /** The agent ids whose envelopes are known. */
    List<String> envelopeAgents();

    /** The envelope {@code request} is, for {@code agent}; empty when it is none (see {@link Envelopes#unwrap}). */
    Optional<Envelopes.Unwrapped> unwrap(String agent, JudgeRequest request);
}
