package io.shellgate.judge.internal.analysis.builtins;

import io.shellgate.judge.Dialect;
import io.shellgate.judge.internal.analysis.model.Checks;
import io.shellgate.judge.internal.analysis.model.Field;
import io.shellgate.judge.internal.analysis.options.BuiltinArgs;
import io.shellgate.judge.internal.analysis.walk.Analyzer;
import io.shellgate.judge.internal.analysis.walk.Assignments;
import io.shellgate.judge.internal.analysis.walk.Invocation;
import io.shellgate.judge.internal.analysis.walk.NestedCode;
import java.util.List;

/**
 * Builtins that assign variables named in their arguments ({@code read NAME}, {@code getopts
 * spec NAME}, {@code wait -p NAME}, zsh's {@code zstyle -s ... NAME} and {@code print -v NAME}),
 * each with its grammar; every target goes through {@link Assignments#assignText}, so a special
 * variable asks and a subscript is evaluated. zsh's {@code zstyle -e} stores code run later: it is
 * judged as code.
 */
final class Targets {

    private Targets() {}

    static void check(Analyzer a, Invocation inv, String builtin, List<Field> args) {
        switch (builtin) {
            case "read" -> read(a, inv, args);
            case "getopts" -> {
                if (args.size() >= 2) {
                    assign(a, inv, args.get(1), "getopts sets");
                }
            }
            case "wait" -> {
                BuiltinArgs.Parsed p = BuiltinArgs.parse(args, inv.scope.dialect == Dialect.BASH
                        ? BuiltinArgs.Grammar.of("fn", "p") : BuiltinArgs.Grammar.of("", ""));
                if (p.problem() != null) {
                    ShellState.ask(a, inv, Checks.OPTION_NOT_PERMITTED, "wait: " + p.problem());
                } else if (p.value('p') != null) {
                    assign(a, inv, p.value('p'), "wait -p sets");
                }
            }
            case "zstyle" -> zstyle(a, inv, args);
            case "print" -> print(a, inv, args);
            case "printf" -> {
                // printf [-v NAME] FORMAT [ARGS]: only -v, which assigns; sh's printf takes no options
                if (!args.isEmpty() && !args.getFirst().isLiteral() && args.getFirst().mayBeOption()) {
                    ShellState.ask(a, inv, Checks.DYNAMIC_ARGUMENT, "printf: the argument " + args.getFirst().display()
                            + " is computed at run time and could be -v, which assigns a variable");
                } else if (inv.scope.dialect != Dialect.SH && !args.isEmpty() && args.getFirst().text().startsWith("-v")) {
                    BuiltinArgs.Parsed p = BuiltinArgs.parse(args, BuiltinArgs.Grammar.of("", "v"));
                    if (p.problem() != null) {
                        ShellState.ask(a, inv, Checks.OPTION_NOT_PERMITTED, "printf: " + p.problem());
                    } else {
                        assign(a, inv, p.value('v'), "printf -v sets");
                    }
                } else if (!args.isEmpty() && args.getFirst().text().startsWith("-") && !args.getFirst().text().equals("--")
                        && inv.scope.dialect != Dialect.SH) {
                    ShellState.ask(a, inv, Checks.OPTION_NOT_PERMITTED, "printf: the option " + args.getFirst().display()
                            + " is not one shellgate knows");
                }
            }
            default -> ShellState.ask(a, inv, Checks.SHELL_STATE, builtin + " is a builtin shellgate has no grammar for");
        }
    }

    private static void assign(Analyzer a, Invocation inv, Field target, String how) {
        Assignments.assignText(a, inv.scope, target, Field.hole(), inv.span(), how);
    }

    /** {@code read}: bash's, zsh's ({@code name?prompt}, {@code -A}) or sh's options; every name is assigned. */
    private static void read(Analyzer a, Invocation inv, List<Field> args) {
        Dialect d = inv.scope.dialect;
        BuiltinArgs.Grammar g = switch (d) {
            case ZSH -> new BuiltinArgs.Grammar("rszpqAclneE", "du", "tk", false);
            case SH -> BuiltinArgs.Grammar.of("r", "p");
            default -> BuiltinArgs.Grammar.of("ers", "adinNptu");
        };
        BuiltinArgs.Parsed p = BuiltinArgs.parse(args, g);
        if (p.problem() != null) {
            ShellState.ask(a, inv, Checks.OPTION_NOT_PERMITTED, "read: " + p.problem());
            return;
        }
        if (p.value('a') != null) {
            assign(a, inv, p.value('a'), "read -a sets");
        }
        for (int i = 0; i < p.operands().size(); i++) {
            Field name = p.operands().get(i);
            if (d == Dialect.ZSH && i == 0 && name.text().indexOf('?') >= 0) {
                // zsh: read 'name?prompt'
                String t = name.text();
                name = new Field(t.substring(0, t.indexOf('?')), name.producers(), false, name.expanded());
            }
            assign(a, inv, name, "read sets");
        }
    }

    /**
     * zsh's {@code zstyle}: defining a style is fine; {@code -e} stores code that runs when the
     * style is looked up; {@code -s -b -a CONTEXT STYLE NAME} and {@code -g NAME} assign NAME.
     */
    private static void zstyle(Analyzer a, Invocation inv, List<Field> args) {
        if (args.isEmpty() || !args.getFirst().text().startsWith("-") || args.getFirst().text().equals("-")
                || args.getFirst().text().equals("--")) {
            return;
        }
        String option = args.getFirst().text();
        switch (option) {
            case "-e" -> {
                if (args.size() > 3) {
                    NestedCode.code(a, inv, NestedCode.join(args.subList(3, args.size())), Dialect.ZSH, inv.scope.deeper(),
                            "zstyle -e");
                }
            }
            case "-s", "-b", "-a" -> {
                if (args.size() > 3) {
                    assign(a, inv, args.get(3), "zstyle " + option + " sets");
                }
            }
            case "-g" -> {
                if (args.size() > 1) {
                    assign(a, inv, args.get(1), "zstyle -g sets");
                }
            }
            case "-d", "-L", "-t", "-T", "-m" -> {
                // deletes, lists or tests styles
            }
            default -> ShellState.ask(a, inv, Checks.OPTION_NOT_PERMITTED, "zstyle: the option " + args.getFirst().display()
                    + " is not one shellgate knows");
        }
    }

    /**
     * zsh's {@code print}: printing is fine; {@code -v NAME} assigns, {@code -s} and {@code -S}
     * add to the history, {@code -z} puts text on the command line to run, {@code -u N} writes
     * to another descriptor.
     */
    private static void print(Analyzer a, Invocation inv, List<Field> args) {
        BuiltinArgs.Parsed p = BuiltinArgs.parse(args, BuiltinArgs.Grammar.of("abcDilmnNoOpPrRsSzeE", "fCxXuv"));
        if (p.problem() != null) {
            ShellState.ask(a, inv, Checks.OPTION_NOT_PERMITTED, "print: " + p.problem());
            return;
        }
        if (p.has('s') || p.has('S') || p.has('z')) {
            ShellState.ask(a, inv, Checks.SHELL_STATE, "print " + (p.has('z') ? "-z puts text on the command line to run"
                    : "-s adds text to the shell's history"));
        }
        Field fd = p.value('u');
        if (fd != null && !(fd.isLiteral() && (fd.text().equals("1") || fd.text().equals("2")))) {
            ShellState.ask(a, inv, Checks.WRITES_FILE, "print -u " + fd.display() + " writes to another open file");
        }
        if (p.value('v') != null) {
            assign(a, inv, p.value('v'), "print -v sets");
        }
    }
}
