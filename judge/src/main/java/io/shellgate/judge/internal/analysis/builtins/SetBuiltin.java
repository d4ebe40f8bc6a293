package io.shellgate.judge.internal.analysis.builtins;

import io.shellgate.judge.Dialect;
import io.shellgate.judge.internal.analysis.model.Checks;
import io.shellgate.judge.internal.analysis.model.Field;
import io.shellgate.judge.internal.analysis.model.Scope;
import io.shellgate.judge.internal.analysis.options.BuiltinArgs;
import io.shellgate.judge.internal.analysis.walk.Analyzer;
import io.shellgate.judge.internal.analysis.walk.Assignments;
import io.shellgate.judge.internal.analysis.walk.Invocation;
import io.shellgate.judge.internal.analysis.walk.NestedCode;
import java.util.ArrayList;
import java.util.List;

/**
 * The builtins that set shell options: {@code set} (options and positional parameters),
 * bash's {@code shopt}, zsh's {@code setopt}, {@code unsetopt} and {@code emulate}. Each option
 * goes through {@link ShellOptions}; {@code emulate sh -c CODE} runs CODE read as sh.
 */
final class SetBuiltin {

    private SetBuiltin() {}

    /** {@code set [-+letters] [-+o name] [-- args]}; with no arguments it prints every variable. */
    static void set(Analyzer a, Invocation inv, List<Field> args) {
        Scope scope = inv.scope;
        if (args.isEmpty()) {
            ShellState.ask(a, inv, Checks.PRINTS_ENVIRONMENT, "set with no arguments prints every variable, secrets included");
            return;
        }
        int i = 0;
        for (; i < args.size(); i++) {
            Field f = args.get(i);
            String t = f.text();
            if (!f.isLiteral() && (t.isEmpty() || t.charAt(0) == Field.HOLE)) {
                ShellState.ask(a, inv, Checks.SHELL_STATE, "set: the argument " + f.display() + " is computed at run time");
                return;
            }
            if (t.equals("--")) {
                i++;
                scope.positional = List.copyOf(args.subList(i, args.size()));
                return;
            }
            if (t.equals("-") || t.equals("+")) {
                // "set -": the end of the options (and -x and -v off)
                i++;
                break;
            }
            if (!(t.startsWith("-") || t.startsWith("+")) || t.length() < 2) {
                break;
            }
            boolean on = t.charAt(0) == '-';
            for (int j = 1; j < t.length(); j++) {
                char c = t.charAt(j);
                if (c == 'o') {
                    if (scope.dialect == Dialect.ZSH && j + 1 < t.length()) {
                        option(a, inv, t.substring(j + 1), on);
                        break;
                    }
                    if (i + 1 >= args.size()) {
                        // set -o alone lists the options
                        continue;
                    }
                    Field name = args.get(++i);
                    if (!name.isLiteral()) {
                        ShellState.ask(a, inv, Checks.SHELL_STATE, "set -o " + name.display() + ": the option is computed at run time");
                        return;
                    }
                    option(a, inv, name.text(), on);
                } else if (c == 'A' && scope.dialect == Dialect.ZSH) {
                    // set -A NAME values: an array assignment
                    if (i + 1 < args.size()) {
                        Assignments.assignText(a, scope, args.get(i + 1), Field.hole(), inv.span(), "set -A sets");
                    }
                    return;
                } else if (c == 's' && scope.dialect == Dialect.ZSH) {
                    scope.positional = null;
                } else {
                    String name = ShellOptions.letter(scope.dialect, c);
                    if (name == null) {
                        ShellState.ask(a, inv, Checks.OPTION_NOT_PERMITTED, "set: -" + Field.literal(String.valueOf(c)).display()
                                + " is not an option shellgate knows in " + scope.dialect.id());
                        return;
                    }
                    option(a, inv, name, on);
                }
            }
        }
        if (i < args.size()) {
            scope.positional = List.copyOf(args.subList(i, args.size()));
        }
    }

    private static void option(Analyzer a, Invocation inv, String name, boolean on) {
        ShellOptions.Effect effect = ShellOptions.option(inv.scope.dialect, name, on);
        ShellOptions.apply(a, inv.scope, effect, "set " + (on ? "-o " : "+o ") + name, inv.span());
    }

    /** bash's {@code shopt [-pqsuo] [name...]}: without -s or -u it prints or tests. */
    static void shopt(Analyzer a, Invocation inv, List<Field> args) {
        BuiltinArgs.Parsed p = BuiltinArgs.parse(args, BuiltinArgs.Grammar.of("pqsuo", ""));
        if (p.problem() != null) {
            ShellState.ask(a, inv, Checks.OPTION_NOT_PERMITTED, "shopt: " + p.problem());
            return;
        }
        if (!p.has('s') && !p.has('u')) {
            return;
        }
        boolean on = p.has('s');
        for (Field f : p.operands()) {
            if (!f.isLiteral()) {
                ShellState.ask(a, inv, Checks.SHELL_STATE, "shopt: the option " + f.display() + " is computed at run time");
                continue;
            }
            ShellOptions.Effect effect = p.has('o') ? ShellOptions.bashOption(f.text(), on) : ShellOptions.shopt(f.text(), on);
            ShellOptions.apply(a, inv.scope, effect, "shopt " + (on ? "-s " : "-u ") + f.text(), inv.span());
        }
    }

    /** zsh's {@code setopt} and {@code unsetopt}: names in any case, with or without underscores and a {@code no}. */
    static void setopt(Analyzer a, Invocation inv, boolean set, List<Field> args) {
        for (Field f : args) {
            String t = f.text();
            if (!f.isLiteral()) {
                ShellState.ask(a, inv, Checks.SHELL_STATE, "setopt: the option " + f.display() + " is computed at run time");
                continue;
            }
            if (t.startsWith("-") || t.startsWith("+")) {
                // setopt -m patterns, or single-letter options
                if (t.startsWith("-m") || t.startsWith("+m")) {
                    ShellState.ask(a, inv, Checks.SHELL_STATE, "setopt -m sets every option matching a pattern");
                    return;
                }
                boolean on = set == (t.charAt(0) == '-');
                for (int j = 1; j < t.length(); j++) {
                    String name = ShellOptions.letter(Dialect.ZSH, t.charAt(j));
                    ShellOptions.apply(a, inv.scope, name == null ? ShellOptions.Effect.UNSAFE
                            : ShellOptions.zshOption(name, on), "setopt " + t, inv.span());
                }
                continue;
            }
            ShellOptions.apply(a, inv.scope, ShellOptions.zshOption(t, set), (set ? "setopt " : "unsetopt ") + t, inv.span());
        }
    }

    /**
     * zsh's {@code emulate [-lLR] [{+|-}o option...] [mode [-c code]]}: {@code -c} runs CODE read
     * as the mode's shell; switching the whole shell to another mode changes how every later line
     * is read, and asks.
     */
    static void emulate(Analyzer a, Invocation inv, List<Field> args) {
        String mode = null;
        Field code = null;
        boolean list = false;
        List<String> options = new ArrayList<>();
        for (int i = 0; i < args.size(); i++) {
            Field f = args.get(i);
            String t = f.text();
            if (!f.isLiteral()) {
                ShellState.ask(a, inv, Checks.SHELL_STATE, "emulate: the argument " + f.display() + " is computed at run time");
                return;
            }
            if ((t.equals("-o") || t.equals("+o")) && i + 1 < args.size()) {
                options.add((t.charAt(0) == '-' ? "" : "no") + args.get(++i).text());
            } else if (t.equals("-c") && i + 1 < args.size()) {
                code = args.get(++i);
            } else if (t.startsWith("-") && t.length() > 1 && t.substring(1).chars().allMatch(c -> "lLR".indexOf(c) >= 0)) {
                list |= t.indexOf('l') > 0;
            } else if (mode == null && !t.startsWith("-") && !t.startsWith("+")) {
                mode = t;
            } else {
                ShellState.ask(a, inv, Checks.OPTION_NOT_PERMITTED, "emulate: " + f.display() + " is not an argument shellgate knows");
                return;
            }
        }
        if (mode == null || list && code == null) {
            return;
        }
        for (String o : options) {
            ShellOptions.apply(a, inv.scope, ShellOptions.zshOption(o, true), "emulate -o " + o, inv.span());
        }
        Dialect dialect = switch (mode) {
            case "zsh" -> Dialect.ZSH;
            case "sh", "ksh", "bash" -> Dialect.SH;
            default -> null;
        };
        if (code != null) {
            if (dialect == null) {
                ShellState.ask(a, inv, Checks.SHELL_NOT_JUDGED, "emulate " + mode + " -c runs code read as " + mode
                        + ", which shellgate does not judge");
                return;
            }
            Scope inner = inv.scope.deeper(dialect);
            NestedCode.code(a, inv, code, dialect, inner, "emulate " + mode + " -c");
            inv.scope.adopt(inner);
            return;
        }
        if (dialect != Dialect.ZSH) {
            ShellState.ask(a, inv, Checks.SHELL_STATE, "emulate " + mode + " makes zsh read later commands as " + mode
                    + " does (splitting words, globbing values), which shellgate does not follow");
        }
    }
}
