package io.shellgate.judge.internal.powershell;

import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * How often each variable of a script may be set, counted before the script is walked: by
 * assignments, loops, parameters, {@code [ref]}, the common parameters that name variables
 * ({@code -OutVariable}...) and the cmdlets that set them. Only a variable set once has a type the
 * judge may rely on.
 */
final class PsVariables {

    /** Counts past one mean "not known": set in several places, or in a way that is not followed. */
    static final int MANY = 2;
    /** The key that says some variable whose name is computed at run time is set: no variable's type is then known. */
    static final String ANY = "*";
    private static final Set<String> NAMING_PARAMS = Set.of("outvariable", "ov", "errorvariable", "ev", "warningvariable",
            "wv", "informationvariable", "iv", "pipelinevariable", "pv");
    private static final Set<String> SETTERS = Set.of("Set-Variable", "New-Variable", "Clear-Variable", "Remove-Variable");

    private final Map<String, Integer> counts = new HashMap<>();

    private PsVariables() {}

    /** The number of times each variable (lower case, scope dropped) may be set. */
    static Map<String, Integer> count(List<PsAst.Statement> script) {
        PsVariables v = new PsVariables();
        v.statements(script, false);
        return v.counts;
    }

    /** A variable's name without its scope, lower case. */
    static String name(String written) {
        String n = written.toLowerCase(Locale.ROOT);
        int colon = n.indexOf(':');
        return colon > 0 && Set.of("global", "script", "local", "private", "using").contains(n.substring(0, colon))
                ? n.substring(colon + 1) : n;
    }

    private void set(String written, int times) {
        counts.merge(name(written), times, Integer::sum);
    }

    private void statements(List<PsAst.Statement> statements, boolean parameters) {
        statements.forEach(s -> statement(s, parameters));
    }

    private void statement(PsAst.Statement s, boolean parameters) {
        switch (s) {
            case PsAst.Pipeline p -> p.elements().forEach(e -> element(e, parameters));
            case PsAst.Assignment a -> {
                PsAst.Expr target = a.target() instanceof PsAst.Compound c && !c.parts().isEmpty() ? c.parts().getFirst() : a.target();
                if (a.target() instanceof PsAst.Compound c && c.kind() == PsAst.Compound.Kind.ARRAY) {
                    // $a, $b = 1, (Get-Item x): every target is set, each to a value not followed here
                    for (PsAst.Expr part : c.parts()) {
                        PsAst.Expr inner = part instanceof PsAst.Compound cast && cast.kind() == PsAst.Compound.Kind.CAST
                                ? cast.parts().getLast() : part;
                        if (inner instanceof PsAst.Variable v) {
                            set(v.name(), MANY);
                        }
                    }
                } else if (target instanceof PsAst.Variable v) {
                    set(v.name(), a.target() == target && a.operator().equals("=") ? 1 : MANY);
                }
                expr(a.target(), parameters);
                statement(a.value(), parameters);
            }
            case PsAst.Block b -> {
                boolean param = b.keyword().equals("param");
                if (b.keyword().equals("foreach") && !b.expressions().isEmpty() && b.expressions().getFirst() instanceof PsAst.Variable v) {
                    set(v.name(), 1);
                }
                b.expressions().forEach(e -> expr(e, param || parameters));
                b.bodies().forEach(body -> statements(body, param || parameters));
            }
            case PsAst.FunctionDef f -> statements(f.body(), false);
        }
    }

    private void element(PsAst.Element e, boolean parameters) {
        switch (e) {
            case PsAst.ExprElement x -> expr(x.expr(), parameters);
            case PsAst.CommandCall c -> {
                expr(c.name(), parameters);
                String cmdlet = c.name() instanceof PsAst.Literal l ? PsNames.cmdlet(l.value()) : null;
                if (cmdlet == null && c.name() instanceof PsAst.Literal l) {
                    // Set-Variable is no cmdlet of the read-only tables, but sets a variable all the same
                    cmdlet = SETTERS.stream().filter(l.value()::equalsIgnoreCase).findFirst().orElse(null);
                }
                for (PsAst.Arg a : c.args()) {
                    switch (a) {
                        case PsAst.Param p -> {
                            if (p.value() != null) {
                                expr(p.value(), parameters);
                                if (namesVariable(p.name())) {
                                    named(p.value());
                                }
                            }
                        }
                        case PsAst.Value v -> {
                            expr(v.value(), parameters);
                            if (cmdlet != null && SETTERS.contains(cmdlet) || previousNames(c, a)) {
                                named(v.value());
                            }
                        }
                        case PsAst.StopParsing sp -> {
                            // no variables
                        }
                    }
                }
            }
        }
    }

    /** Whether the argument follows a common parameter that names a variable ({@code -OutVariable x}). */
    private static boolean previousNames(PsAst.CommandCall c, PsAst.Arg a) {
        int i = c.args().indexOf(a);
        return i > 0 && c.args().get(i - 1) instanceof PsAst.Param p && p.value() == null
                && namesVariable(p.name());
    }

    /**
     * Whether a parameter written so names a variable to set: the common parameters' names, their
     * aliases and abbreviations ({@code -OutVa}, {@code -PipelineV}); an ambiguous one counts too.
     */
    private static boolean namesVariable(String written) {
        String w = written.toLowerCase(Locale.ROOT);
        return NAMING_PARAMS.contains(w) || w.length() >= 2 && NAMING_PARAMS.stream().anyMatch(n -> n.length() > 2 && n.startsWith(w));
    }

    private void named(PsAst.Expr e) {
        String value = e instanceof PsAst.Literal l ? l.value() : null;
        if (value != null) {
            set(value.startsWith("+") ? value.substring(1) : value, MANY);
        } else {
            // -OutVariable ('y'), Set-Variable $name: which variable is set is not known
            counts.put(ANY, MANY);
        }
    }

    private void expr(PsAst.Expr e, boolean parameters) {
        switch (e) {
            case PsAst.Variable v -> {
                if (parameters) {
                    set(v.name(), MANY);
                }
            }
            case PsAst.Expandable x -> x.parts().forEach(p -> expr(p, parameters));
            case PsAst.SubExpr s -> statements(s.statements(), parameters);
            case PsAst.ScriptBlock b -> statements(b.statements(), false);
            case PsAst.Member m -> {
                expr(m.target(), parameters);
                if (m.arguments() != null) {
                    m.arguments().forEach(x -> expr(x, parameters));
                }
            }
            case PsAst.Compound c -> {
                boolean ref = c.kind() == PsAst.Compound.Kind.CAST && c.parts().getFirst() instanceof PsAst.TypeName t
                        && t.name().equalsIgnoreCase("ref");
                if (ref && c.parts().size() == 2 && c.parts().get(1) instanceof PsAst.Variable v) {
                    set(v.name(), MANY);
                }
                c.parts().forEach(p -> expr(p, parameters));
            }
            case PsAst.Literal l -> {
                // a constant
            }
            case PsAst.TypeName t -> {
                // a type
            }
        }
    }
}
