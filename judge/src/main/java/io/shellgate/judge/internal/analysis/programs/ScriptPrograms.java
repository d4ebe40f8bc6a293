package io.shellgate.judge.internal.analysis.programs;

import io.shellgate.judge.Dialect;
import io.shellgate.judge.internal.analysis.model.Checks;
import io.shellgate.judge.internal.analysis.model.Field;
import io.shellgate.judge.internal.analysis.options.OptionParser;
import io.shellgate.judge.internal.analysis.walk.CheckContext;
import io.shellgate.judge.internal.analysis.walk.Invocation;
import io.shellgate.judge.internal.analysis.walk.NestedCode;
import io.shellgate.rules.Tier;
import java.util.ArrayList;
import java.util.List;

/** What sed and awk share: where their scripts are given, and how what a script does is reported. */
final class ScriptPrograms {

    private ScriptPrograms() {}

    /** The scripts given by option ({@code -e}) or, without one, the first operand. */
    static List<Field> programs(OptionParser.Parsed parsed, List<String> options) {
        List<Field> out = new ArrayList<>();
        for (OptionParser.Opt o : parsed.options()) {
            if (options.contains(o.name()) && o.value() != null) {
                out.add(o.value());
            }
        }
        if (out.isEmpty() && !parsed.operands().isEmpty()) {
            out.add(parsed.operands().getFirst());
        }
        return out;
    }

    /** Reports what a sed script or awk program does: why it is not read-only, the files it reads and writes. */
    static void effects(CheckContext a, Invocation inv, String language, String problem, List<String> reads,
            List<String> writes, List<String> commands) {
        for (String command : commands) {
            // the command runs with sh -c: a catastrophe there is refused, not only asked about
            a.nestedCode(inv, Field.literal(command), Dialect.SH, NestedCode.child(inv, Dialect.SH, null),
                    language + "'s command");
        }
        if (problem != null) {
            a.add(Checks.PROGRAM_LANGUAGE, Tier.ASK, language + ": " + problem, inv.span());
            return;
        }
        for (String file : reads) {
            a.checkRead(Field.literal(file), inv.scope, inv.span(), "reads");
        }
        for (String file : writes) {
            a.write(Field.literal(file), inv.scope, inv.span());
        }
    }
}
