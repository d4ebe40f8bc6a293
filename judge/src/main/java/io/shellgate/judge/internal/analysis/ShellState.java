package io.shellgate.judge.internal.analysis;

import io.shellgate.judge.Dialect;
import io.shellgate.rules.Tier;
import java.util.List;
import java.util.Set;

/**
 * Builtins that change or show the shell's own state. Showing is fine except where it prints the
 * environment (which holds secrets); changing is fine except where it changes what later commands
 * run: exported or dangerous variables, aliases, traps (judged as the code they run), hashed paths.
 */
final class ShellState {

    private static final Set<String> DECLARERS = Set.of("export", "declare", "typeset", "local", "readonly");

    private ShellState() {}

    static void check(Analyzer a, CommandJudge.Invocation inv) {
        String name = CommandJudge.basename(inv.argv.getFirst().plain());
        List<Field> args = inv.argv.subList(1, inv.argv.size());
        List<String> words = args.stream().map(Field::plain).toList();
        switch (name) {
            case "set" -> {
                if (args.isEmpty()) {
                    ask(a, inv, Checks.PRINTS_ENVIRONMENT, "set with no arguments prints every variable, secrets included");
                }
            }
            case "export", "declare", "typeset", "local", "readonly" -> declare(a, inv, name, args);
            case "alias" -> {
                if (words.stream().anyMatch(w -> w.contains("="))) {
                    ask(a, inv, Checks.SHELL_STATE, "alias changes what a name runs in later commands");
                }
            }
            case "trap" -> trap(a, inv, args);
            case "read" -> {
                for (int i = 0; i < args.size(); i++) {
                    String w = words.get(i);
                    if (w.equals("-p") || w.equals("-d") || w.equals("-n") || w.equals("-N") || w.equals("-t")
                            || w.equals("-u") || w.equals("-i")) {
                        i++;
                    } else if (w.equals("-a")) {
                        continue;
                    } else if (!w.startsWith("-") && Assignments.dangerous(a, w)) {
                        ask(a, inv, Checks.DANGEROUS_VARIABLE, "read sets " + w + ", which changes what later commands run");
                    } else if (!w.startsWith("-")) {
                        Assignments.set(inv.scope, w, Field.hole(), false);
                    }
                }
            }
            case "hash" -> {
                if (words.contains("-p")) {
                    ask(a, inv, Checks.SHELL_STATE, "hash -p binds a command name to a file");
                }
            }
            case "ulimit", "umask" -> {
                if (args.stream().anyMatch(f -> !f.plain().startsWith("-"))) {
                    ask(a, inv, Checks.SHELL_STATE, name + " with a value changes the limits of later commands");
                }
            }
            case "history" -> {
                if (args.stream().anyMatch(f -> f.plain().startsWith("-"))) {
                    ask(a, inv, Checks.SHELL_STATE, "history with options clears or writes the history");
                }
            }
            case "let" -> {
                for (Field f : args) {
                    String t = f.plain();
                    // bash evaluates array subscripts in arithmetic, running $(...) inside them
                    if (t.contains("$(") || t.contains("`") || !f.isLiteral()) {
                        ask(a, inv, Checks.DYNAMIC_CODE, "let evaluates " + f.display() + " as arithmetic, which can run commands");
                    }
                    int eq = t.indexOf('=');
                    if (eq > 0 && Assignments.dangerous(a, withoutOperator(t.substring(0, eq)))) {
                        ask(a, inv, Checks.DANGEROUS_VARIABLE, "let sets " + t.substring(0, eq));
                    }
                }
            }
            case "unset" -> {
                for (String w : words) {
                    if (!w.startsWith("-")) {
                        inv.scope.vars.remove(w);
                        inv.scope.exported.remove(w);
                        inv.scope.functions.remove(w);
                    }
                }
            }
            case "shopt", "setopt", "unsetopt", "emulate", "jobs", "wait", "times", "help", "unalias", "shift", "exit",
                 "return", "break", "continue", "getopts", "functions", "disown", "rehash", "zstyle" -> {
                // shows or changes shell state that does not change what later commands run
            }
            default -> ask(a, inv, Checks.SHELL_STATE, name + " changes the shell's state");
        }
    }

    private static void declare(Analyzer a, CommandJudge.Invocation inv, String name, List<Field> args) {
        boolean exportAll = name.equals("export");
        boolean printing = args.isEmpty();
        boolean functions = false;
        for (Field f : args) {
            String t = f.plain();
            if (t.startsWith("-") || t.startsWith("+")) {
                if (t.contains("x") && t.startsWith("-")) {
                    exportAll = true;
                }
                if (t.contains("p")) {
                    printing = true;
                }
                if (t.contains("f") || t.contains("F")) {
                    functions = true;
                }
                continue;
            }
            printing = false;
            int eq = t.indexOf('=');
            String var = eq > 0 ? t.substring(0, eq).replace("+", "") : t;
            if (functions) {
                if (exportAll) {
                    ask(a, inv, Checks.SHELL_STATE, "export -f passes a function to child shells");
                }
                continue;
            }
            Field value = eq > 0 ? new Field(f.text().substring(t.indexOf('=') + 1), f.producers(), f.processSub(), true) : null;
            if (exportAll) {
                Assignments.environment(a, var, inv.span());
                inv.scope.exported.add(var);
            } else if (Assignments.dangerous(a, var)) {
                ask(a, inv, Checks.DANGEROUS_VARIABLE, name + " sets " + var + ", which changes what later commands run");
            } else if (inv.scope.exported.contains(var) && value != null) {
                Assignments.environment(a, var, inv.span());
            }
            if (value != null) {
                Assignments.set(inv.scope, var, value, t.substring(0, eq).endsWith("+"));
            }
        }
        if (printing && !functions) {
            ask(a, inv, Checks.PRINTS_ENVIRONMENT, name + " with no names prints variables, secrets included");
        }
    }

    private static void trap(Analyzer a, CommandJudge.Invocation inv, List<Field> args) {
        if (args.isEmpty() || args.getFirst().plain().startsWith("-")) {
            return;
        }
        Field action = args.getFirst();
        if (args.size() == 1 || action.plain().equals("-") || action.plain().isEmpty() && !action.expanded()) {
            return;
        }
        if (!action.isLiteral() || action.expanded()) {
            ask(a, inv, Checks.DYNAMIC_CODE, "trap runs code that is computed at run time");
            return;
        }
        // the action runs later in this same shell
        a.subscript(action.plain(), inv.scope.dialect == Dialect.ZSH ? Dialect.ZSH : inv.scope.dialect, inv.scope.deeper(),
                inv.span());
    }

    /**
     * The variable name of an arithmetic assignment's left side ({@code x+=1}, {@code x<<=2}): the
     * text with its trailing operator characters taken off, in one pass (a regular expression
     * anchored at the end went back over the whole run from every start: seconds for a long one).
     */
    static String withoutOperator(String left) {
        int end = left.length();
        while (end > 0 && "+-*/%<>&|^".indexOf(left.charAt(end - 1)) >= 0) {
            end--;
        }
        return left.substring(0, end);
    }

    private static void ask(Analyzer a, CommandJudge.Invocation inv, String check, String message) {
        a.add(check, Tier.ASK, message, inv.span());
    }
}
