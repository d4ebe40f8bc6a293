package io.shellgate.judge.internal.analysis.programs;

import io.shellgate.judge.internal.analysis.model.Checks;
import io.shellgate.judge.internal.analysis.options.OptionParser;
import io.shellgate.judge.internal.analysis.walk.CheckContext;
import io.shellgate.judge.internal.analysis.walk.CommandJudge;
import io.shellgate.judge.internal.analysis.walk.Invocation;
import io.shellgate.judge.internal.analysis.walk.ProgramCheck;
import io.shellgate.rules.ReadOnlyCommand;
import io.shellgate.rules.Tier;

/** {@code top} and its kind: read-only only in batch mode, where they read no command keys. */
public final class BatchOnlyCheck implements ProgramCheck {

    @Override
    public void after(CheckContext a, Invocation inv, ReadOnlyCommand entry, OptionParser.Parsed parsed) {
        // interactive top reads command keys from its terminal: k signals any process of the
        // user (the judge server included), r renices, W writes its configuration file; an agent
        // that types into the terminal (Codex's write_stdin) could use them. Batch mode reads none.
        String program = CommandJudge.basename(inv.argv.getFirst().plain());
        boolean batch = parsed.options().stream().map(OptionParser.Opt::name).anyMatch(n -> n.equals("-b")
                || n.equals("--batch-mode") || n.equals("-h") || n.equals("--help") || n.equals("-v")
                || n.equals("-V") || n.equals("--version") || n.equals("-O") || n.equals("--list-fields"));
        if (!batch) {
            a.add(Checks.INTERACTIVE_PROGRAM, Tier.ASK, program + " without -b reads command keys from its terminal"
                    + " (k signals any process of the user, r renices one, W writes its settings): " + program
                    + " -b prints and reads no keys", inv.span());
        }
    }
}
