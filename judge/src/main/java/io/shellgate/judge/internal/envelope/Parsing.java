package io.shellgate.judge.internal.envelope;

import io.shellgate.judge.internal.syntax.Command;
import io.shellgate.judge.internal.syntax.Script;
import io.shellgate.judge.internal.syntax.ShellParser;
import io.shellgate.judge.internal.treesitter.TreeSitterBashParser;

/** The judge's own parser, for the parts of an envelope whose shape is checked as a whole. */
final class Parsing {

    private static final ShellParser PARSER = new TreeSitterBashParser();

    /** Far above any real parse: a budget that runs out means "not recognised", never allow. */
    private static final long BUDGET_NANOS = 5_000_000_000L;

    private Parsing() {}

    /** The parse of {@code text} when it has no error and no part the parser did not understand; else null. */
    static Script clean(String text) {
        Script s;
        try {
            s = PARSER.parse(text, BUDGET_NANOS);
        } catch (ShellParser.ParseBudgetException | StackOverflowError e) {
            return null;
        }
        return s.errors().isEmpty() && !Walk.hasOpaque(s.body()) ? s : null;
    }

    /** The top-level commands of a script, in order. */
    static java.util.List<Command> items(Script s) {
        return s.body() instanceof Command.Sequence seq ? seq.items() : java.util.List.of(s.body());
    }
}
