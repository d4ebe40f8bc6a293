package io.shellgate.judge.internal.analysis.walk;

import io.shellgate.judge.Dialect;
import io.shellgate.judge.Span;
import io.shellgate.judge.internal.analysis.model.Field;
import io.shellgate.judge.internal.analysis.model.Scope;
import io.shellgate.judge.internal.syntax.Assignment;
import io.shellgate.judge.internal.syntax.Command;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Which assignments before a command stay in the shell, per dialect and mode. An assignment before
 * a POSIX special builtin ({@code :}, {@code .}, {@code eval}, {@code exec}, {@code export},
 * {@code readonly}, {@code set}, {@code times}, {@code trap}, {@code unset}...) stays in the shell
 * after it in sh (dash), in bash's POSIX mode ({@code set -o posix}, or {@code POSIXLY_CORRECT} set
 * to anything, the empty string too: bash then exports it as well) and in zsh emulating sh; elsewhere
 * it holds only while the builtin runs. {@code command} and {@code builtin} before the builtin take
 * that away. While {@code eval} runs its text the assignments are in force in every dialect
 * ({@code PATH=/tmp:$PATH eval ls} looks {@code ls} up in {@code /tmp}), and they are in the
 * environment of every program the text starts.
 */
public final class PosixAssignments {

    /** POSIX's special builtins. */
    static final Set<String> SPECIAL = Set.of(":", ".", "break", "continue", "eval", "exec", "exit", "export",
            "readonly", "return", "set", "shift", "times", "trap", "unset");

    /** Builtins that start a program or run a file of code, whose environment the assignments reach. */
    static final Set<String> STARTS = Set.of("exec", ".", "source", "command", "builtin");

    private PosixAssignments() {}

    /** Whether an assignment before a special builtin stays in this shell. */
    static boolean persist(Scope scope) {
        return scope.dialect == Dialect.SH || scope.options.posix;
    }

    /**
     * After {@code NAME=value builtin} ran as a special builtin called by its name: in a shell where
     * the assignments stay, each is made in the shell, with every check of a plain assignment.
     * {@code eval} and {@code .} make them themselves ({@link #enter}); a {@code .} that is not judged asks anyway.
     */
    static void afterCommand(Analyzer a, Command.Simple node, Scope scope, String program, Map<String, Field> env) {
        if (node.assignments().isEmpty() || !SPECIAL.contains(program) || program.equals("eval") || program.equals(".")
                || !a.policy.isBuiltin(scope.dialect, program) && !program.equals(":")) {
            return;
        }
        // POSIXLY_CORRECT=1 : switches bash to POSIX mode while it assigns, so that this assignment, and
        // POSIX mode with it, stays
        boolean switches = scope.dialect == Dialect.BASH
                && node.assignments().stream().anyMatch(as -> as.name().equals("POSIXLY_CORRECT"));
        if (!persist(scope) && !switches) {
            return;
        }
        for (Assignment as : node.assignments()) {
            Field value = as.subscript() == null ? env.getOrDefault(as.name(), Field.hole()) : Field.hole();
            Assignments.assign(a, scope, as.name(), null, value, false, as.span(), "the special builtin " + program + " keeps");
            if (scope.dialect == Dialect.BASH) {
                scope.exported.add(as.name());
            }
        }
    }

    /**
     * Whether the assignments before this command are only in force while {@code eval} runs its text
     * ({@code X=1 eval ...}, {@code X=1 command eval ...}, {@code X=1 builtin eval ...}): then which of
     * them reach a program's environment is judged when the text starts one.
     */
    static boolean beforeEval(Analyzer a, Scope scope, List<Field> argv) {
        if (argv.isEmpty() || !argv.getFirst().isLiteral()) {
            return false;
        }
        String first = argv.getFirst().plain();
        String target = first;
        if ((first.equals("command") || first.equals("builtin")) && argv.size() > 1 && argv.get(1).isLiteral()
                && a.policy.isBuiltin(scope.dialect, first) && !scope.functions.contains(first)) {
            target = argv.get(1).plain();
        }
        return target.equals("eval") && a.policy.isBuiltin(scope.dialect, "eval") && !scope.functions.contains("eval");
    }

    /** What {@link #enter} changed, to be undone by {@link #leave}. */
    public record Saved(Map<String, Field> values, Set<String> absent, Set<String> unexported, Map<String, Field> applied,
            boolean keep) {}

    /**
     * Puts the assignments before {@code eval} in force in the shell it runs its text in: each is
     * set and exported, and those not on the safe list are judged when a program is started.
     */
    public static Saved enter(Analyzer a, Invocation inv, Scope inner) {
        Map<String, Field> values = new HashMap<>();
        Set<String> absent = new HashSet<>();
        Set<String> unexported = new HashSet<>();
        Map<String, Field> applied = new HashMap<>();
        List<String> deferred = new ArrayList<>(inner.deferredEnv);
        for (String name : inv.prefix) {
            Field value = inv.env.get(name);
            if (value == null || applied.containsKey(name)) {
                continue;
            }
            if (inner.vars.containsKey(name)) {
                values.put(name, inner.vars.get(name));
            } else {
                absent.add(name);
            }
            if (!inner.exported.contains(name)) {
                unexported.add(name);
            }
            Assignments.set(inner, name, value, false);
            inner.exported.add(name);
            applied.put(name, inner.vars.get(name));
            if (!a.policy.envSafe.contains(name)) {
                deferred.add(name);
            }
        }
        inner.deferredEnv = List.copyOf(deferred);
        boolean keep = inv.wrappers.isEmpty() && persist(inv.scope);
        return new Saved(values, absent, unexported, applied, keep);
    }

    /**
     * After {@code eval}: where the assignments stay (sh, POSIX mode, eval called by its name) they do;
     * elsewhere each gets its old value back, or an unknown one when the text assigned the name itself.
     */
    public static void leave(Scope scope, Saved saved) {
        if (saved.keep()) {
            if (scope.dialect != Dialect.BASH) {
                // dash keeps the values but not the export
                saved.unexported().forEach(n -> {
                    if (saved.applied().get(n) == scope.vars.get(n)) {
                        scope.exported.remove(n);
                    }
                });
            }
            return;
        }
        saved.applied().forEach((name, value) -> {
            if (scope.vars.get(name) != value) {
                scope.vars.put(name, Field.hole());
                return;
            }
            if (saved.absent().contains(name)) {
                scope.vars.remove(name);
            } else {
                scope.vars.put(name, saved.values().get(name));
            }
            if (saved.unexported().contains(name)) {
                scope.exported.remove(name);
            }
        });
    }

    /**
     * A program started while {@code eval}'s assignments are in force gets them in its environment:
     * those not on the safe list ask, as they do before any program.
     */
    static void programStarts(Analyzer a, Scope scope, Span span) {
        for (String name : scope.deferredEnv) {
            Assignments.environment(a, scope, name, span);
        }
    }
}
