package io.shellgate.judge.internal.analysis.programs;

import io.shellgate.judge.internal.analysis.model.Checks;
import io.shellgate.judge.internal.analysis.model.Field;
import io.shellgate.judge.internal.analysis.options.OptionParser;
import io.shellgate.judge.internal.analysis.walk.CheckContext;
import io.shellgate.judge.internal.analysis.walk.Invocation;
import io.shellgate.judge.internal.analysis.walk.ProgramCheck;
import io.shellgate.rules.ReadOnlyCommand;
import io.shellgate.rules.Tier;

/** {@code date}: only a {@code +FORMAT} operand prints; any other sets the clock. */
public final class DateCheck implements ProgramCheck {

    @Override
    public void after(CheckContext a, Invocation inv, ReadOnlyCommand entry, OptionParser.Parsed parsed) {
        for (Field f : parsed.operands()) {
            if (!f.isLiteral() || !f.plain().startsWith("+")) {
                a.add(Checks.NOT_READ_ONLY, Tier.ASK, "date " + f.display() + " sets the clock (only a +FORMAT operand prints)",
                        inv.span());
            }
        }
    }
}
