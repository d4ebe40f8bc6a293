package io.shellgate.judge.internal.powershell;

import io.shellgate.judge.internal.windows.WindowsHost;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/** The values of arguments, where the text alone decides them: literals, and the environment's variables. */
final class PsValues {

    /** Automatic variables whose value carries no command or path of the agent's choosing. */
    static final Set<String> HARMLESS = Set.of("_", "psitem", "true", "false", "null", "this", "input", "matches",
            "lastexitcode", "?", "pid", "psversiontable", "host", "args", "error");

    private PsValues() {}

    /** The string value of an argument when it is known here, else null. */
    static String value(PsAst.Expr e, WindowsHost host) {
        return value(e, host, Map.of());
    }

    /**
     * The same, with variables the script assigned a constant to earlier ({@code assigned}). Only
     * the policy's deny and ask rules may use those: a loop or a branch may change them.
     */
    static String value(PsAst.Expr e, WindowsHost host, Map<String, String> assigned) {
        return switch (e) {
            case PsAst.Literal l -> l.value();
            case PsAst.Variable v -> {
                String known = variable(v, host);
                yield known != null || v.splat() ? known : assigned.get(name(v));
            }
            case PsAst.Expandable x -> {
                StringBuilder sb = new StringBuilder();
                for (PsAst.Expr part : x.parts()) {
                    String v = value(part, host, assigned);
                    if (v == null) {
                        yield null;
                    }
                    sb.append(v);
                }
                yield sb.toString();
            }
            case PsAst.SubExpr s -> constant(s);
            case PsAst.ScriptBlock b -> null;
            case PsAst.TypeName t -> null;
            case PsAst.Member m -> null;
            case PsAst.Compound c -> null;
        };
    }

    /** {@code ('C:\')} and {@code $()}: a subexpression that only yields a constant. */
    private static String constant(PsAst.SubExpr s) {
        if (s.statements().isEmpty()) {
            return "";
        }
        if (s.statements().size() == 1 && s.statements().getFirst() instanceof PsAst.Pipeline p && p.elements().size() == 1
                && p.elements().getFirst() instanceof PsAst.ExprElement e && e.redirects().isEmpty()
                && e.expr() instanceof PsAst.Literal l) {
            return l.value();
        }
        return null;
    }

    /** The elements of an argument ({@code a,b} has two); null entries are not known here. */
    static List<String> values(PsAst.Expr e, WindowsHost host) {
        return values(e, host, Map.of());
    }

    /** The same, with the script's constant variables, for the policy's rules only. */
    static List<String> values(PsAst.Expr e, WindowsHost host, Map<String, String> assigned) {
        List<String> out = new ArrayList<>();
        if (e instanceof PsAst.Compound c && !c.parts().isEmpty()) {
            for (PsAst.Expr part : c.parts()) {
                out.add(value(part, host, assigned));
            }
        } else {
            out.add(value(e, host, assigned));
        }
        return out;
    }

    /** A variable's name without its scope ({@code $script:x} is {@code x}), lower case. */
    static String name(PsAst.Variable v) {
        String n = v.name().toLowerCase(Locale.ROOT);
        int colon = n.indexOf(':');
        return colon > 0 && Set.of("global", "script", "local", "private", "using").contains(n.substring(0, colon))
                ? n.substring(colon + 1) : n;
    }

    private static String variable(PsAst.Variable v, WindowsHost host) {
        if (v.splat()) {
            return null;
        }
        String name = v.name().toLowerCase(Locale.ROOT);
        if (name.startsWith("env:")) {
            return env(host.env(), name.substring(4));
        }
        return switch (name) {
            case "home" -> host.home() == null ? null : host.home().replace('/', '\\');
            case "true" -> "True";
            case "false" -> "False";
            case "null" -> "";
            default -> null;
        };
    }

    /** An environment variable, whose name Windows compares without case. */
    static String env(Map<String, String> env, String name) {
        for (Map.Entry<String, String> e : env.entrySet()) {
            if (e.getKey().equalsIgnoreCase(name)) {
                return e.getValue();
            }
        }
        return null;
    }

    /** Whether an argument's value, known or not, cannot name a path or code of the agent's choosing. */
    static boolean harmless(PsAst.Expr e, WindowsHost host) {
        return switch (e) {
            case PsAst.Variable v -> !v.splat() && (HARMLESS.contains(v.name().toLowerCase(Locale.ROOT)) || value(e, host) != null);
            case PsAst.Literal l -> true;
            case PsAst.Expandable x -> x.parts().stream().allMatch(p -> harmless(p, host));
            case PsAst.SubExpr s -> true;
            case PsAst.ScriptBlock b -> true;
            case PsAst.TypeName t -> true;
            case PsAst.Member m -> m.arguments() == null && harmless(m.target(), host);
            case PsAst.Compound c -> c.parts().stream().allMatch(p -> harmless(p, host));
        };
    }
}
