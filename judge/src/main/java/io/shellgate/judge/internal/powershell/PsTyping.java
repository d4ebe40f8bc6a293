package io.shellgate.judge.internal.powershell;

import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The static types of PowerShell expressions, as far as the text tells them: literals, casts,
 * {@code [Type]::Member}, the automatic variables, variables set once at the top of the script,
 * {@code $_} in the script blocks of a command (the type of what its pipeline hands it), and
 * what a listed member returns. A method call is allowed only when the member is on
 * {@link PsTypes}' list for the type of its target.
 */
final class PsTyping {

    private static final Map<String, String> AUTOMATIC = Map.of("executioncontext", "system.management.automation.engineintrinsics",
            "psversiontable", "system.management.automation.psversionhashtable", "home", PsTypes.STRING, "pshome", PsTypes.STRING,
            "pwd", "system.management.automation.pathinfo", "true", "system.boolean", "false", "system.boolean", "host",
            "system.management.automation.host.pshost", "shellid", PsTypes.STRING, "pid", "system.int32");

    private final PowerShellJudge ps;
    private final Map<String, Integer> assignments;
    /** The type of {@code $_} in the script blocks of the command being walked; null when not known. */
    String item;
    /** Variables whose type is known from their one assignment. */
    final Map<String, String> variables = new HashMap<>();

    PsTyping(PowerShellJudge ps, List<PsAst.Statement> script) {
        this.ps = ps;
        this.assignments = PsVariables.count(script);
    }

    /** Whether the variable is set once in the whole script, so that its one value's type holds wherever it is read. */
    boolean setOnce(String written) {
        return !assignments.containsKey(PsVariables.ANY) && assignments.getOrDefault(PsVariables.name(written), 0) == 1;
    }

    /** The type of an expression's value (of its elements, for a collection), or null when it is not known. */
    String of(PsAst.Expr e) {
        return switch (e) {
            case PsAst.Literal l -> l.quoted() || !isNumber(l.value()) ? PsTypes.STRING
                    : l.value().contains(".") ? "system.double" : "system.int32";
            case PsAst.Expandable x -> PsTypes.STRING;
            case PsAst.Variable v -> variable(v);
            case PsAst.SubExpr s -> {
                PsFlow flow = ps.flows.get(s);
                yield flow == null ? null : flow.type();
            }
            case PsAst.ScriptBlock b -> "system.management.automation.scriptblock";
            case PsAst.TypeName t -> "system.type";
            case PsAst.Member m -> {
                PsTypes.Member member = member(m);
                yield member == null ? null : member.result();
            }
            case PsAst.Compound c -> switch (c.kind()) {
                case CAST -> c.parts().getFirst() instanceof PsAst.TypeName t ? PsTypes.canonical(t.name()) : null;
                case INDEX -> {
                    String target = of(c.parts().getFirst());
                    yield PsTypes.STRING.equals(target) ? "system.char" : target;
                }
                case ARRAY -> {
                    String first = of(c.parts().getFirst());
                    yield c.parts().stream().allMatch(p -> first != null && first.equals(of(p))) ? first : null;
                }
                case HASH -> PsTypes.HASHTABLE;
                case OPERATOR -> {
                    // 'a' + $x, 'a' -replace 'b' and 1..9 keep the type of their left operand, when it is one value:
                    // @('a') + (Get-Item x) is an array that holds a FileInfo
                    PsAst.Expr left = c.parts().getFirst();
                    String first = left instanceof PsAst.Literal || left instanceof PsAst.Expandable ? of(left) : null;
                    yield PsTypes.STRING.equals(first) || "system.int32".equals(first) ? first : null;
                }
                case UNARY, MEMBER -> null;
            };
        };
    }

    private static boolean isNumber(String text) {
        if (text.isEmpty() || !Character.isDigit(text.charAt(0))) {
            return false;
        }
        for (char c : text.toCharArray()) {
            if (!Character.isLetterOrDigit(c) && c != '.') {
                return false;
            }
        }
        return true;
    }

    private String variable(PsAst.Variable v) {
        String name = v.name().toLowerCase(Locale.ROOT);
        if (name.equals("_") || name.equals("psitem")) {
            return item;
        }
        if (name.startsWith("env:")) {
            return PsTypes.STRING;
        }
        String automatic = AUTOMATIC.get(name);
        return automatic != null ? automatic : variables.get(PsVariables.name(v.name()));
    }

    /** The member a property read or method call reaches, when it is on the list; null otherwise. */
    PsTypes.Member member(PsAst.Member m) {
        if (m.isStatic()) {
            return m.target() instanceof PsAst.TypeName t ? PsTypes.member(PsTypes.canonical(t.name()), m.name(), true) : null;
        }
        return PsTypes.member(of(m.target()), m.name(), false);
    }

    /** Why a method call is not known to only compute a value, or null when it is. */
    String impure(PsAst.Member m) {
        if (m.name() == null) {
            return "calls a method chosen at run time";
        }
        String name = m.name().toLowerCase(Locale.ROOT);
        if (!m.isStatic() && (name.equals("foreach") || name.equals("where"))) {
            return intrinsic(m, name);
        }
        PsTypes.Member member = member(m);
        if (member != null && member.method()) {
            return null;
        }
        if (m.isStatic()) {
            String type = m.target() instanceof PsAst.TypeName t ? "[" + t.name() + "]" : "a type computed at run time";
            return "calls the static method " + type + "::" + m.name() + ", which is not on the list of methods that only"
                    + " compute a value";
        }
        String type = of(m.target());
        return "calls the .NET method " + m.name() + (type == null ? " on a value whose type is not known here"
                : " of " + type + ", which is not on the list of methods that only compute a value");
    }

    /** {@code .ForEach({...})}, {@code .Where({...})}, {@code .ForEach([type])} and {@code .ForEach('Name')}. */
    private String intrinsic(PsAst.Member m, String name) {
        List<PsAst.Expr> args = m.arguments();
        if (args.isEmpty() || args.getFirst() instanceof PsAst.ScriptBlock || name.equals("foreach")
                && args.getFirst() instanceof PsAst.TypeName) {
            return null;
        }
        if (name.equals("foreach")) {
            String member = PsValues.value(args.getFirst(), ps.host);
            return readsOnly(of(m.target()), member, args.size() > 1) ? null
                    : ".ForEach(" + args.getFirst().span().of(ps.code) + ") calls a method on every element, or one chosen at run time";
        }
        return ".Where(" + args.getFirst().span().of(ps.code) + ") with something other than a script block";
    }

    /**
     * Whether naming {@code member} of values of {@code type} ({@code ForEach-Object Name},
     * {@code .ForEach('Name')}) only reads a property or calls a listed method.
     *
     * @param withArguments whether arguments are passed (then it can only be a method call)
     */
    boolean readsOnly(String type, String member, boolean withArguments) {
        if (member == null) {
            return false;
        }
        PsTypes.Member known = PsTypes.member(type, member, false);
        if (known != null) {
            return known.method() || !withArguments;
        }
        // the objects ConvertFrom-Json and [pscustomobject] make have note properties and no methods of their own
        return PsTypes.CUSTOM.equals(type) && !withArguments;
    }
}
