package io.shellgate.judge.internal.analysis.walk;

import io.shellgate.judge.Dialect;
import io.shellgate.judge.internal.analysis.model.Checks;
import io.shellgate.judge.internal.analysis.model.Field;
import io.shellgate.judge.internal.analysis.model.Scope;
import io.shellgate.rules.Tier;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;

/**
 * Text that a command runs as code ({@code eval TEXT}, {@code trap TEXT}, an option's program):
 * judged as a script when its text is known, never allowed when it is not, refused when it comes
 * from the network.
 */
public final class NestedCode {

    private NestedCode() {}

    /** Judges code given as text; unknown code asks, downloaded code is refused. */
    public static void code(Analyzer a, Invocation inv, Field text, Dialect dialect, Scope scope, String what) {
        if (a.downloads(text)) {
            Detectors.downloadToShell(a, inv.span(), what + " runs code downloaded from the network");
            return;
        }
        if (!text.isLiteral() || text.expanded()) {
            // even a variable whose value is known here may hold something else where the line runs
            a.add(Checks.DYNAMIC_CODE, Tier.ASK, what + " runs code that is computed at run time (" + text.display() + ")",
                    inv.span());
            return;
        }
        a.subscript(text.plain(), dialect, scope, inv.span());
    }

    public static Field join(List<Field> args) {
        Field out = Field.literal("");
        for (int i = 0; i < args.size(); i++) {
            out = out.concat(i == 0 ? args.get(i) : Field.literal(" ").concat(args.get(i)));
        }
        return out;
    }

    /** The scope of a new shell the invocation starts, with the invocation's environment. */
    public static Scope child(Invocation inv, Dialect dialect, List<Field> positional) {
        Map<String, Field> vars = new HashMap<>(inv.env);
        Scope s = new Scope(dialect, inv.scope.depth + 1, vars, new HashSet<>(inv.env.keySet()), inv.scope.cwds,
                new HashSet<>(), positional, inv.scope.knowsAllVariables);
        return s;
    }
}
