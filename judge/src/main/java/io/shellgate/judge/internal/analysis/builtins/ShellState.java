package io.shellgate.judge.internal.analysis.builtins;

import io.shellgate.judge.Dialect;
import io.shellgate.judge.internal.analysis.model.Checks;
import io.shellgate.judge.internal.analysis.model.Field;
import io.shellgate.judge.internal.analysis.options.BuiltinArgs;
import io.shellgate.judge.internal.analysis.walk.Analyzer;
import io.shellgate.judge.internal.analysis.walk.Arithmetic;
import io.shellgate.judge.internal.analysis.walk.Assignments;
import io.shellgate.judge.internal.analysis.walk.CommandJudge;
import io.shellgate.judge.internal.analysis.walk.Invocation;
import io.shellgate.judge.internal.analysis.walk.NestedCode;
import io.shellgate.rules.Tier;
import java.util.List;
import java.util.Set;

/**
 * The builtins that show or change the shell's own state, each with its grammar in each dialect
 * (bash, zsh, sh). What a builtin changes is followed where the judge relies on it (variables and
 * their attributes, positional parameters, options) and asks where it changes what later
 * commands run (aliases, traps and code it runs, hashed paths, options that change globbing).
 * A builtin of another dialect, an option not in the grammar, or a builtin with no grammar here
 * asks.
 */
public final class ShellState {

    /** Builtins that are also ordinary programs doing the same without touching any state. */
    private static final Set<String> PROGRAMS = Set.of("printf", "test", "[");

    private ShellState() {}

    public static void check(Analyzer a, Invocation inv) {
        String name = CommandJudge.basename(inv.argv.getFirst().plain());
        Dialect dialect = inv.scope.dialect;
        if (!inv.builtinOnly && !a.policy.isBuiltin(dialect, name) || inv.argv.getFirst().plain().contains("/")) {
            if (PROGRAMS.contains(name)) {
                // the programs of these names (coreutils) print or compare their arguments and change
                // nothing: no -v, no variables; where the program is found is judged as for any program
                return;
            }
            ask(a, inv, Checks.NOT_READ_ONLY, name + " is not a builtin of " + dialect.id()
                    + " here, so it would run a program of that name");
            return;
        }
        List<Field> args = inv.argv.subList(1, inv.argv.size());
        switch (name) {
            case "set" -> SetBuiltin.set(a, inv, args);
            case "shopt" -> SetBuiltin.shopt(a, inv, args);
            case "setopt", "unsetopt" -> SetBuiltin.setopt(a, inv, name.equals("setopt"), args);
            case "emulate" -> SetBuiltin.emulate(a, inv, args);
            case "export", "declare", "typeset", "local", "readonly", "integer", "float" ->
                    Declarations.check(a, inv, name, args);
            case "read", "getopts", "wait", "zstyle", "print", "printf" -> Targets.check(a, inv, name, args);
            case "unset" -> unset(a, inv, args);
            case "let" -> {
                for (Field f : args) {
                    Arithmetic.check(a, f, inv.scope, inv.span());
                }
            }
            case "test", "[" -> test(a, inv, args);
            case "trap" -> trap(a, inv, args);
            case "jobs" -> jobs(a, inv, args);
            case "alias" -> {
                if (args.stream().anyMatch(f -> f.text().indexOf('=') > 0 || f.hasHoles())) {
                    ask(a, inv, Checks.SHELL_STATE, "alias changes what a name runs in later commands");
                }
            }
            case "hash" -> {
                if (args.stream().anyMatch(f -> f.text().equals("-p") || f.text().startsWith("-") && f.text().contains("p")
                        && dialect != Dialect.ZSH || f.text().indexOf('=') > 0 || f.hasHoles())) {
                    ask(a, inv, Checks.SHELL_STATE, "hash binds a command name (or a directory name) to a path");
                }
            }
            case "history" -> {
                // bash lists the session's own lines (none in bash -c); its options clear, read and write
                // history files; zsh's history is fc -l, with fc's options (reading files, running lines)
                if (dialect == Dialect.ZSH || args.size() > 1 || !args.isEmpty() && !Arithmetic.isNumber(args.getFirst().text())) {
                    ask(a, inv, Checks.SHELL_STATE, name + " with these arguments reads, writes or runs lines of the history,"
                            + " which may hold secrets");
                }
            }
            case "fc" -> ask(a, inv, Checks.SHELL_STATE, "fc edits and runs commands typed earlier");
            case "functions" -> functions(a, inv, args);
            case "ulimit", "umask" -> {
                if (args.stream().anyMatch(f -> !f.text().startsWith("-"))) {
                    ask(a, inv, Checks.SHELL_STATE, name + " with a value changes the limits of later commands");
                }
            }
            case "shift" -> shift(inv, args);
            case "unalias", "times", "help", "disown", "rehash", "unhash", "exit", "return", "break", "continue" -> {
                // shows or changes state that does not change what later commands run
            }
            default -> ask(a, inv, Checks.SHELL_STATE, name + " is a builtin shellgate has no grammar for");
        }
    }

    /** {@code unset NAME}: known unset from here on; a subscript ({@code unset 'a[$(id)]'}) is evaluated. */
    private static void unset(Analyzer a, Invocation inv, List<Field> args) {
        boolean zsh = inv.scope.dialect == Dialect.ZSH;
        BuiltinArgs.Parsed p = BuiltinArgs.parse(args, BuiltinArgs.Grammar.of(zsh ? "fmv" : "fnv", ""));
        if (p.problem() != null) {
            ask(a, inv, Checks.OPTION_NOT_PERMITTED, "unset: " + p.problem());
            return;
        }
        if (p.has('m') || p.has('n')) {
            ask(a, inv, Checks.SHELL_STATE, "unset " + (p.has('m') ? "-m unsets every variable matching a pattern"
                    : "-n unsets through a name reference"));
            return;
        }
        for (Field f : p.operands()) {
            String t = f.textWithoutPatterns();
            if (p.has('f')) {
                inv.scope.functions.remove(t);
                continue;
            }
            int open = t.indexOf('[');
            if (open > 0 && t.endsWith("]")) {
                Arithmetic.subscript(a, t.substring(0, open), new Field(t.substring(open + 1, t.length() - 1), f.producers(),
                        false, true), inv.scope, inv.span());
                inv.scope.vars.put(t.substring(0, open), Field.hole());
            } else if (!Assignments.isName(t)) {
                ask(a, inv, Checks.SHELL_STATE, "unset " + f.display() + ": the name is not known here");
            } else if (t.equals("PATH")) {
                ask(a, inv, Checks.DANGEROUS_VARIABLE, "unset PATH makes the shell look programs up in a default path");
            } else {
                inv.scope.vars.put(t, null);
                inv.scope.exported.remove(t);
                inv.scope.functions.remove(t);
            }
        }
    }

    /**
     * {@code test} and {@code [}: {@code -v NAME} evaluates NAME's subscript ({@code test -v
     * 'a[$(id)]'} runs id); in zsh the operands of {@code -eq} and the like are arithmetic.
     */
    private static void test(Analyzer a, Invocation inv, List<Field> args) {
        for (int i = 0; i < args.size(); i++) {
            String t = args.get(i).text();
            if ((t.equals("-v") || t.equals("-R")) && i + 1 < args.size()) {
                Arithmetic.name(a, args.get(i + 1), inv.scope, inv.span());
            } else if (inv.scope.dialect == Dialect.ZSH && i > 0 && i + 1 < args.size()
                    && List.of("-eq", "-ne", "-lt", "-le", "-gt", "-ge").contains(t)) {
                Arithmetic.check(a, args.get(i - 1), inv.scope, inv.span());
                Arithmetic.check(a, args.get(i + 1), inv.scope, inv.span());
            }
        }
    }

    /** {@code trap [-lp] [[action] condition...]}: the action is code this shell runs later. */
    private static void trap(Analyzer a, Invocation inv, List<Field> args) {
        BuiltinArgs.Parsed p = BuiltinArgs.parse(args, BuiltinArgs.Grammar.of(inv.scope.dialect == Dialect.ZSH ? "" : "lpP", ""));
        if (p.problem() != null) {
            ask(a, inv, Checks.OPTION_NOT_PERMITTED, "trap: " + p.problem());
            return;
        }
        List<Field> ops = p.operands();
        if (p.has('l') || p.has('p') || p.has('P') || ops.size() < 2) {
            // lists traps, or resets the conditions given
            return;
        }
        Field action = ops.getFirst();
        String t = action.text();
        if (t.equals("-") || t.isEmpty() && !action.expanded() || action.isLiteral() && Arithmetic.isNumber(t)) {
            return;
        }
        NestedCode.code(a, inv, action, inv.scope.dialect, inv.scope.deeper(), "trap");
    }

    /** bash's {@code jobs -x COMMAND ARGS} runs the command; the other forms list jobs. */
    private static void jobs(Analyzer a, Invocation inv, List<Field> args) {
        Dialect d = inv.scope.dialect;
        String flags = d == Dialect.ZSH ? "dlprs" : d == Dialect.SH ? "lp" : "lnprs";
        for (int i = 0; i < args.size(); i++) {
            String t = args.get(i).text();
            if (d == Dialect.BASH && t.startsWith("-") && t.length() > 1 && t.indexOf('x') > 0
                    && t.substring(1).chars().allMatch(c -> flags.indexOf(c) >= 0 || c == 'x')) {
                a.commands.judgeArgv(inv, args.subList(i + 1, args.size()));
                return;
            }
            if (!t.startsWith("-") || t.equals("--")) {
                break;
            }
            if (!t.substring(1).chars().allMatch(c -> flags.indexOf(c) >= 0)) {
                ask(a, inv, Checks.OPTION_NOT_PERMITTED, "jobs: the option " + args.get(i).display()
                        + " is not one shellgate knows in " + d.id());
                return;
            }
        }
    }

    /** zsh's {@code functions}: printing is fine; defining math functions, copying and autoloading ask. */
    private static void functions(Analyzer a, Invocation inv, List<Field> args) {
        BuiltinArgs.Parsed p = BuiltinArgs.parse(args, new BuiltinArgs.Grammar("mtT", "x", "", true));
        if (p.problem() != null) {
            ask(a, inv, Checks.SHELL_STATE, "functions: " + p.problem()
                    + " (-M defines math functions, -c copies one, -u and -k autoload one from a file)");
        }
    }

    private static void shift(Invocation inv, List<Field> args) {
        List<Field> pos = inv.scope.positional;
        if (pos == null) {
            return;
        }
        int n = 1;
        if (!args.isEmpty()) {
            String t = args.getFirst().text();
            n = args.getFirst().isLiteral() && Arithmetic.isNumber(t) && t.length() < 6 ? Integer.parseInt(t) : -1;
        }
        inv.scope.positional = n < 0 || n > pos.size() ? (n < 0 ? null : pos) : List.copyOf(pos.subList(n, pos.size()));
    }

    static void ask(Analyzer a, Invocation inv, String check, String message) {
        a.add(check, Tier.ASK, message, inv.span());
    }
}
