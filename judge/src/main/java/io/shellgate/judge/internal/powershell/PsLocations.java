package io.shellgate.judge.internal.powershell;

import java.util.List;
import java.util.Set;

/**
 * Whether code changes the current location. The location belongs to the whole session, not to a
 * scope: a {@code cd} inside a loop, a branch, a function or a script block changes it for what
 * follows, but the walk cannot tell whether, or how often, that code runs.
 */
final class PsLocations {

    private static final Set<String> MOVES = Set.of("Set-Location", "Push-Location", "Pop-Location", "Invoke-Expression");

    private PsLocations() {}

    /** Whether a command name changes the location: the location cmdlets, the cd.. and drive functions, code from strings. */
    static boolean moves(String name) {
        String cmdlet = PsNames.cmdlet(name);
        return cmdlet != null && MOVES.contains(cmdlet) || PsNames.locationFunction(name) != null;
    }

    static boolean changes(List<PsAst.Statement> statements) {
        return statements.stream().anyMatch(PsLocations::changes);
    }

    static boolean changes(PsAst.Statement statement) {
        return switch (statement) {
            case PsAst.Pipeline p -> p.elements().stream().anyMatch(PsLocations::changes);
            case PsAst.Assignment a -> changes(a.target()) || changes(a.value());
            case PsAst.Block b -> b.expressions().stream().anyMatch(PsLocations::changes)
                    || b.bodies().stream().anyMatch(PsLocations::changes);
            case PsAst.FunctionDef f -> changes(f.body());
        };
    }

    private static boolean changes(PsAst.Element element) {
        return switch (element) {
            case PsAst.ExprElement e -> changes(e.expr());
            case PsAst.CommandCall c -> c.name() instanceof PsAst.Literal l && moves(l.value()) || !(c.name() instanceof PsAst.Literal)
                    && changes(c.name()) || c.args().stream().anyMatch(a -> a instanceof PsAst.Value v && changes(v.value())
                            || a instanceof PsAst.Param p && p.value() != null && changes(p.value()));
        };
    }

    static boolean changes(PsAst.Expr e) {
        return switch (e) {
            case PsAst.Literal l -> false;
            case PsAst.Variable v -> false;
            case PsAst.TypeName t -> false;
            case PsAst.Expandable x -> x.parts().stream().anyMatch(PsLocations::changes);
            case PsAst.SubExpr s -> changes(s.statements());
            case PsAst.ScriptBlock b -> changes(b.statements());
            case PsAst.Member m -> changes(m.target()) || m.arguments() != null && m.arguments().stream().anyMatch(PsLocations::changes);
            case PsAst.Compound c -> c.parts().stream().anyMatch(PsLocations::changes);
        };
    }
}
