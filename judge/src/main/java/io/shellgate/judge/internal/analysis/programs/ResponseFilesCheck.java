package io.shellgate.judge.internal.analysis.programs;

import io.shellgate.judge.internal.analysis.model.Checks;
import io.shellgate.judge.internal.analysis.model.Field;
import io.shellgate.judge.internal.analysis.options.OptionParser;
import io.shellgate.judge.internal.analysis.walk.CheckContext;
import io.shellgate.judge.internal.analysis.walk.CommandJudge;
import io.shellgate.judge.internal.analysis.walk.Invocation;
import io.shellgate.judge.internal.analysis.walk.ProgramCheck;
import io.shellgate.rules.ReadOnlyCommand;
import io.shellgate.rules.Tier;

/** Programs that read more options from {@code @FILE} operands (response files), which are not judged. */
public final class ResponseFilesCheck implements ProgramCheck {

    @Override
    public void after(CheckContext a, Invocation inv, ReadOnlyCommand entry, OptionParser.Parsed parsed) {
        String program = CommandJudge.basename(inv.argv.getFirst().plain());
        for (Field f : parsed.operands()) {
            if (f.plain().startsWith("@")) {
                a.add(Checks.OPTION_NOT_PERMITTED, Tier.ASK, program + " reads more options from " + f.display(), inv.span());
            }
        }
    }
}
