package io.shellgate.judge.internal.analysis.builtins;

import io.shellgate.judge.Dialect;
import io.shellgate.judge.internal.analysis.model.Checks;
import io.shellgate.judge.internal.analysis.model.Field;
import io.shellgate.judge.internal.analysis.model.Scope;
import io.shellgate.judge.internal.analysis.options.BuiltinArgs;
import io.shellgate.judge.internal.analysis.walk.Analyzer;
import io.shellgate.judge.internal.analysis.walk.Arithmetic;
import io.shellgate.judge.internal.analysis.walk.Assignments;
import io.shellgate.judge.internal.analysis.walk.Invocation;
import java.util.List;

/**
 * {@code declare}, {@code typeset}, {@code local}, {@code export}, {@code readonly} and zsh's
 * {@code integer} and {@code float}, with each dialect's options. Without names they print
 * variables (secrets included: ask); {@code -p NAME} prints one (a secret's name asks); each
 * {@code NAME=value} is an assignment judged like any other, with the attributes given:
 * exported, integer (the value is arithmetic), associative, case-converted (not followed).
 * Name references ({@code -n}), ties and patterns ask.
 */
final class Declarations {

    private Declarations() {}

    private static BuiltinArgs.Grammar grammar(Dialect dialect, String builtin) {
        if (dialect == Dialect.ZSH) {
            // typeset's letters; E, F, L, R, Z and i take an optional number
            return new BuiltinArgs.Grammar("AHUafghlprtuxmTkz", "", "EFLRZi", true);
        }
        if (dialect == Dialect.SH) {
            return BuiltinArgs.Grammar.of(builtin.equals("local") ? "" : "p", "");
        }
        return switch (builtin) {
            case "export" -> BuiltinArgs.Grammar.plus("fnp", "");
            case "readonly" -> BuiltinArgs.Grammar.plus("aAfp", "");
            default -> BuiltinArgs.Grammar.plus("aAfFgiIlnprtux", "");
        };
    }

    static void check(Analyzer a, Invocation inv, String builtin, List<Field> args) {
        Scope scope = inv.scope;
        BuiltinArgs.Parsed p = BuiltinArgs.parse(args, grammar(scope.dialect, builtin));
        if (p.problem() != null) {
            ShellState.ask(a, inv, Checks.OPTION_NOT_PERMITTED, builtin + ": " + p.problem());
            return;
        }
        boolean functions = p.hasAny('f') || p.hasAny('F');
        if (p.hasAny('n') && !builtin.equals("export") || p.hasAny('T') || p.hasAny('m')
                || functions && (p.hasAny('u') || p.hasAny('k') || p.hasAny('z'))) {
            ShellState.ask(a, inv, Checks.SHELL_STATE, builtin + " " + (p.hasAny('n') ? "-n makes a name refer to another variable"
                    : p.hasAny('T') ? "-T ties two variables together" : p.hasAny('m') ? "-m takes patterns for names"
                    : "marks a function to be loaded from a file") + ", which shellgate does not follow");
            return;
        }
        if (functions) {
            boolean exports = builtin.equals("export") || p.has('x');
            if (exports && !p.operands().isEmpty()) {
                ShellState.ask(a, inv, Checks.SHELL_STATE, builtin + " -f passes a function to child shells");
            }
            // otherwise it prints function definitions or names
            return;
        }
        List<Field> names = p.operands();
        if (names.isEmpty()) {
            ShellState.ask(a, inv, Checks.PRINTS_ENVIRONMENT, builtin + " with no names prints variables, secrets included");
            return;
        }
        if (p.has('p')) {
            for (Field f : names) {
                if (!f.isLiteral() || a.policy.isSecretVariable(f.text())) {
                    ShellState.ask(a, inv, Checks.PRINTS_ENVIRONMENT, builtin + " -p prints " + f.display()
                            + (f.isLiteral() ? ", whose name marks a secret" : ", a name computed at run time"));
                }
            }
            return;
        }
        boolean export = builtin.equals("export") && !p.has('n') || p.has('x');
        for (Field f : names) {
            declare(a, inv, builtin, p, export, f);
        }
    }

    /** One {@code NAME}, {@code NAME=value} or {@code NAME[i]=value} operand. */
    private static void declare(Analyzer a, Invocation inv, String builtin, BuiltinArgs.Parsed p, boolean export,
            Field f) {
        Scope scope = inv.scope;
        String t = f.textWithoutPatterns();
        int eq = assignmentEquals(t);
        String target = eq < 0 ? t : t.substring(0, eq > 0 && t.charAt(eq - 1) == '+' ? eq - 1 : eq);
        int open = target.indexOf('[');
        String name = open < 0 ? target : target.substring(0, open);
        if (!Assignments.isName(name)) {
            ShellState.ask(a, inv, Checks.SHELL_STATE, builtin + " " + f.display() + ": the name is not known here");
            return;
        }
        if (eq < 0 && open >= 0) {
            // zsh evaluates the subscript of a name declared without a value (typeset 'a[$(cmd)]' runs cmd)
            if (!target.endsWith("]")) {
                ShellState.ask(a, inv, Checks.SHELL_STATE, builtin + " " + f.display() + ": the name is not known here");
                return;
            }
            Arithmetic.subscript(a, name, new Field(target.substring(open + 1, target.length() - 1), f.producers(), false, true),
                    scope, inv.span());
        }
        if (p.has('i') || builtin.equals("integer") || builtin.equals("float") || p.has('E') || p.has('F')) {
            scope.options.integers.add(name);
        } else if (p.hasAny('i')) {
            scope.options.integers.remove(name);
        }
        if (p.has('A')) {
            scope.options.associative.add(name);
        } else if (p.has('a')) {
            scope.options.associative.remove(name);
        }
        if (p.has('l') || p.has('u') || p.has('L') || p.has('R') || p.has('Z')) {
            scope.options.untracked.add(name);
        }
        if (p.hasAny('x') && !p.has('x') || builtin.equals("export") && p.has('n')) {
            scope.exported.remove(name);
        }
        if (export && !scope.exported.contains(name)) {
            scope.exported.add(name);
            if (eq < 0) {
                // export NAME: its value now reaches every later command
                Assignments.environment(a, scope, name, inv.span());
            }
        }
        if (eq >= 0) {
            Field value = new Field(t.substring(eq + 1), f.producers(), f.processSub(), true);
            Assignments.assignText(a, scope, new Field(target, f.producers(), false, f.expanded()), value, inv.span(),
                    builtin + " sets");
        }
    }

    /** Where the {@code =} of {@code NAME=v} or {@code NAME[sub]=v} is: after the subscript's closing bracket. */
    private static int assignmentEquals(String t) {
        int open = t.indexOf('[');
        int eq = t.indexOf('=');
        if (open >= 0 && (eq < 0 || open < eq)) {
            int close = t.indexOf(']', open);
            return close < 0 ? -1 : t.indexOf('=', close);
        }
        return eq;
    }
}
