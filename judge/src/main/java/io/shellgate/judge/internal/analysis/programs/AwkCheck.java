package io.shellgate.judge.internal.analysis.programs;

import io.shellgate.judge.internal.analysis.language.AwkParser;
import io.shellgate.judge.internal.analysis.model.Checks;
import io.shellgate.judge.internal.analysis.model.Field;
import io.shellgate.judge.internal.analysis.options.OptionParser;
import io.shellgate.judge.internal.analysis.walk.CheckContext;
import io.shellgate.judge.internal.analysis.walk.Invocation;
import io.shellgate.judge.internal.analysis.walk.ProgramCheck;
import io.shellgate.rules.ReadOnlyCommand;
import io.shellgate.rules.Tier;
import java.util.List;

/** awk: its programs are parsed by {@link AwkParser}; what they read, write and run is judged, and -v of special arrays asks. */
public final class AwkCheck implements ProgramCheck {

    @Override
    public void after(CheckContext a, Invocation inv, ReadOnlyCommand entry, OptionParser.Parsed parsed) {
        for (Field program : ScriptPrograms.programs(parsed, List.of("-e", "--source"))) {
            if (program.hasUnknown()) {
                a.add(Checks.PROGRAM_LANGUAGE, Tier.ASK, "awk: the program is computed at run time", inv.span());
                continue;
            }
            AwkParser.Result r = AwkParser.check(program.plain());
            ScriptPrograms.effects(a, inv, "awk", r.problem(), r.reads(), r.writes(), r.commands());
        }
        for (OptionParser.Opt o : parsed.options()) {
            if ((o.name().equals("-v") || o.name().equals("--assign")) && o.value() != null) {
                String v = o.value().plain();
                String name = v.contains("=") ? v.substring(0, v.indexOf('=')) : v;
                if (name.equals("ENVIRON") || name.equals("PROCINFO") || name.equals("SYMTAB")) {
                    a.add(Checks.PROGRAM_LANGUAGE, Tier.ASK, "awk: assigns " + name, inv.span());
                }
            }
        }
    }
}
