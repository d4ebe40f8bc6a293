package io.shellgate.judge.internal.analysis.programs;

import io.shellgate.judge.internal.analysis.model.Field;
import io.shellgate.judge.internal.analysis.options.OptionParser;
import io.shellgate.judge.internal.analysis.walk.CheckContext;
import io.shellgate.judge.internal.analysis.walk.Invocation;
import io.shellgate.judge.internal.analysis.walk.ProgramCheck;
import io.shellgate.rules.ReadOnlyCommand;
import java.util.ArrayList;
import java.util.List;

/** {@code xargs [options] CMD [ARGS]}: judged as CMD with arguments that are not known. */
public final class XargsCheck implements ProgramCheck {

    @Override
    public List<String> custom(CheckContext a, Invocation inv, ReadOnlyCommand entry, String sub, List<Field> before,
            List<Field> args) {
        OptionParser.Parsed parsed = a.policy().readOnlyParsers.get(entry).parse(args, true);
        if (!parsed.problems().isEmpty()) {
            return parsed.problems();
        }
        String replace = null;
        for (OptionParser.Opt o : parsed.options()) {
            a.optionValue(inv, o);
            if (o.name().equals("-I") || o.name().equals("--replace") || o.name().equals("-i")) {
                replace = o.value() == null ? "{}" : o.value().plain();
            }
        }
        List<Field> inner = new ArrayList<>();
        for (Field f : parsed.operands()) {
            inner.add(replace != null && f.plain().contains(replace)
                    ? new Field(f.text().replace(replace, String.valueOf(Field.HOLE)), f.producers(), f.processSub(), true)
                    : f);
        }
        if (inner.isEmpty()) {
            inner.add(Field.literal("echo"));
        }
        if (replace == null) {
            inner.add(Field.hole());
        }
        a.judgeArgv(inv, inner);
        return List.of();
    }
}
