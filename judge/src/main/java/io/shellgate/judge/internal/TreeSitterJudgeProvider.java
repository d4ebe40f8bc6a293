package io.shellgate.judge.internal;

import io.shellgate.judge.Envelopes;
import io.shellgate.judge.Judge;
import io.shellgate.judge.JudgeProvider;
import io.shellgate.judge.JudgeRequest;
import io.shellgate.judge.internal.analysis.ExampleCheck;
import io.shellgate.judge.internal.analysis.JudgeEngine;
import io.shellgate.judge.internal.envelope.AgentTable;
import io.shellgate.judge.internal.syntax.ScriptPrinter;
import io.shellgate.judge.internal.syntax.ShellParser;
import io.shellgate.judge.internal.treesitter.JtreesitterBashParser;
import io.shellgate.judge.internal.treesitter.TreeSitterBashParser;
import io.shellgate.rules.Layer;
import io.shellgate.rules.Policy;
import io.shellgate.rules.PolicyException;
import java.util.List;
import java.util.Optional;

/** The judge as {@link io.shellgate.judge.Judges} makes it: the analysis engine over the tree-sitter bash parser. */
public final class TreeSitterJudgeProvider implements JudgeProvider {

    private static final ShellParser PARSER = new TreeSitterBashParser();

    /** Made by {@link java.util.ServiceLoader}. */
    public TreeSitterJudgeProvider() {}

    @Override
    public Judge judge(Policy policy) throws PolicyException {
        return JudgeEngine.create(policy, PARSER);
    }

    @Override
    public void verifyExamples(Policy policy, List<Layer> layers) throws PolicyException {
        ExampleCheck.verify(policy, PARSER, layers);
    }

    @Override
    public String treeSitterTree(String command) {
        return new JtreesitterBashParser().sexp(command);
    }

    @Override
    public String syntaxTree(String command) {
        return ScriptPrinter.print(PARSER.parse(command, 1_000_000_000L));
    }

    @Override
    public List<String> envelopeAgents() {
        return AgentTable.agents();
    }

    @Override
    public Optional<Envelopes.Unwrapped> unwrap(String agent, JudgeRequest request) {
        return AgentTable.unwrap(agent, request);
    }
}
