package io.shellgate.judge.internal.analysis;

import io.shellgate.judge.Span;
import io.shellgate.judge.internal.syntax.Assignment;
import io.shellgate.judge.internal.syntax.Word;
import io.shellgate.rules.Tier;

/**
 * Judges variable assignments. A variable that changes what runs ({@code PATH}, {@code LD_PRELOAD}...)
 * always asks. One passed to a command's environment ({@code FOO=1 cmd}, {@code env FOO=1 cmd},
 * {@code export FOO=1}) asks unless it is on the safe list; a plain shell variable only this shell
 * sees is fine.
 */
final class Assignments {

    private Assignments() {}

    /** {@code NAME=value} on its own: sets a shell variable. */
    static void standalone(Analyzer a, Assignment as, Scope scope) {
        Field value = value(a, as, scope);
        String name = baseName(as.name());
        if (dangerous(a, name)) {
            a.add(Checks.DANGEROUS_VARIABLE, Tier.ASK, "sets " + name + ", which changes what later commands run or how",
                    as.span());
        } else if (scope.exported.contains(name)) {
            environment(a, name, as.span());
        }
        set(scope, name, value, as.append());
    }

    /** {@code NAME=value cmd}: the value is in the command's environment. Returns the value. */
    static Field prefix(Analyzer a, Assignment as, Scope scope, Span span) {
        Field value = value(a, as, scope);
        environment(a, baseName(as.name()), as.span());
        return value;
    }

    /** A variable given to a command's environment by name (prefix, env, export). */
    static void environment(Analyzer a, String name, Span span) {
        if (dangerous(a, name)) {
            a.add(Checks.DANGEROUS_VARIABLE, Tier.ASK, "sets " + name + ", which changes what the command runs or how", span);
        } else if (!a.policy.envSafe.contains(name)) {
            a.add(Checks.ENVIRONMENT, Tier.ASK, "passes " + name + " in the environment, which may change how programs "
                    + "behave; " + name + " is not on the list of safe variables", span);
        }
    }

    static boolean dangerous(Analyzer a, String name) {
        return a.policy.envDangerous.contains(name);
    }

    static void set(Scope scope, String name, Field value, boolean append) {
        if (name.equals("IFS")) {
            scope.ifsChanged = true;
        }
        Field old = scope.vars.get(name);
        if (append && old != null) {
            scope.vars.put(name, old.concat(value));
        } else {
            scope.vars.put(name, value);
        }
    }

    private static Field value(Analyzer a, Assignment as, Scope scope) {
        if (as.array() != null) {
            for (Word w : as.array()) {
                a.expander.expand(w, scope);
            }
            return Field.hole();
        }
        return a.expander.single(as.value(), scope).asExpanded();
    }

    private static String baseName(String name) {
        int bracket = name.indexOf('[');
        return bracket > 0 ? name.substring(0, bracket) : name;
    }
}
