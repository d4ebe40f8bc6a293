package io.shellgate.judge.internal.analysis.programs;

import io.shellgate.judge.internal.analysis.model.Field;
import io.shellgate.judge.internal.analysis.model.Scope;
import io.shellgate.judge.internal.analysis.model.ShellPaths;
import io.shellgate.judge.internal.analysis.options.OptionParser;
import io.shellgate.judge.internal.analysis.walk.CheckContext;
import io.shellgate.judge.internal.analysis.walk.CommandJudge;
import io.shellgate.judge.internal.analysis.walk.Invocation;
import io.shellgate.judge.internal.analysis.walk.ProgramCheck;
import io.shellgate.rules.ReadOnlyCommand;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** {@code cd DIR}, {@code pushd}, {@code popd}: later commands run in DIR (or still here, if cd fails). */
public final class CdCheck implements ProgramCheck {

    @Override
    public void after(CheckContext a, Invocation inv, ReadOnlyCommand entry, OptionParser.Parsed parsed) {
        String program = CommandJudge.basename(inv.argv.getFirst().plain());
        if (!program.equals("cd") && !program.equals("pushd") && !program.equals("popd")) {
            return;
        }
        Scope scope = inv.scope;
        Field target = parsed.operands().isEmpty() ? scope.vars.get("HOME") : parsed.operands().getFirst();
        Field cdpath = scope.lookup("CDPATH");
        boolean searched = cdpath != null && !cdpath.text().isEmpty() && target != null && !target.plain().startsWith("/")
                && !target.plain().startsWith(".");
        // popd, cd -, a computed target, or a relative one that CDPATH may find elsewhere: unknown
        if (program.equals("popd") || target == null || !target.isLiteral() || target.plain().equals("-") || searched) {
            scope.cwds = List.of();
            scope.vars.put("PWD", Field.hole());
            return;
        }
        List<Path> next = new ArrayList<>();
        boolean mayFail = false;
        if (scope.cwds.isEmpty() && !target.plain().startsWith("/")) {
            return;
        }
        for (Path cwd : scope.cwds.isEmpty() ? java.util.Collections.<Path>singletonList(null) : scope.cwds) {
            Path dir = Path.of(ShellPaths.canonical(target.plain(), cwd));
            next.add(dir);
            mayFail |= !a.host().isDirectory(dir);
        }
        if (mayFail) {
            next.addAll(scope.cwds);
        }
        next.removeIf(java.util.Objects::isNull);
        scope.cwds = List.copyOf(new java.util.LinkedHashSet<>(next));
        scope.vars.put("PWD", scope.cwds.size() == 1 ? Field.literal(scope.cwds.getFirst().toString()) : Field.hole());
    }
}
