package io.shellgate.judge.internal.analysis.programs;

import io.shellgate.judge.internal.analysis.language.SedParser;
import io.shellgate.judge.internal.analysis.model.Checks;
import io.shellgate.judge.internal.analysis.model.Field;
import io.shellgate.judge.internal.analysis.options.OptionParser;
import io.shellgate.judge.internal.analysis.walk.CheckContext;
import io.shellgate.judge.internal.analysis.walk.Invocation;
import io.shellgate.judge.internal.analysis.walk.ProgramCheck;
import io.shellgate.rules.ReadOnlyCommand;
import io.shellgate.rules.Tier;
import java.util.List;

/** sed: its scripts are parsed by {@link SedParser}; what they read, write and run is judged. */
public final class SedCheck implements ProgramCheck {

    @Override
    public void after(CheckContext a, Invocation inv, ReadOnlyCommand entry, OptionParser.Parsed parsed) {
        // GNU sed joins its -e scripts with newlines into one: a block may open in one and close in another
        List<Field> scripts = ScriptPrograms.programs(parsed, List.of("-e", "--expression"));
        for (Field script : scripts.size() < 2 ? scripts : List.of(joined(scripts))) {
            if (script.hasUnknown()) {
                a.add(Checks.PROGRAM_LANGUAGE, Tier.ASK, "sed: the script is computed at run time", inv.span());
                continue;
            }
            SedParser.Result r = SedParser.check(script.plain());
            ScriptPrograms.effects(a, inv, "sed", r.problem(), r.reads(), r.writes(), r.commands());
        }
    }

    private static Field joined(List<Field> scripts) {
        Field out = scripts.getFirst();
        for (Field f : scripts.subList(1, scripts.size())) {
            out = out.concat(Field.literal("\n")).concat(f);
        }
        return out;
    }
}
