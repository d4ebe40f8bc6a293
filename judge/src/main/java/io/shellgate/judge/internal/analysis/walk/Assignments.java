package io.shellgate.judge.internal.analysis.walk;

import io.shellgate.judge.Dialect;
import io.shellgate.judge.Span;
import io.shellgate.judge.internal.analysis.model.Checks;
import io.shellgate.judge.internal.analysis.model.Field;
import io.shellgate.judge.internal.analysis.model.Scope;
import io.shellgate.judge.internal.syntax.Assignment;
import io.shellgate.judge.internal.syntax.Part;
import io.shellgate.judge.internal.syntax.Word;
import io.shellgate.rules.Tier;
import java.util.Set;

/**
 * Judges variable assignments, however the line makes them: {@code NAME=value}, a prefix
 * ({@code NAME=value cmd}), {@code export}, {@code declare} and its kind, {@code ${NAME:=value}},
 * loop variables, {@code read}, {@code getopts}, {@code printf -v}, arithmetic. A variable with a
 * special meaning to the shell or to the programs it runs ({@code PATH}-like lookups,
 * {@code LD_PRELOAD}, {@code PS4}, zsh's {@code functions}...) always asks. One passed to a
 * command's environment (a prefix, {@code env}, {@code export}, {@code set -a}) asks unless it is
 * on the safe list; a plain shell variable only this shell sees is fine. A subscript is code.
 */
public final class Assignments {

    /**
     * zsh's own special parameters, which are ordinary names in bash and sh ({@code status=0} is
     * common there): setting one changes what zsh runs, where it looks, or how it reads a line.
     */
    static final Set<String> ZSH_SPECIAL = Set.of("path", "cdpath", "fpath", "FPATH", "module_path", "MODULE_PATH",
            "manpath", "mailpath", "psvar", "prompt", "PROMPT", "PROMPT2", "PROMPT3", "PROMPT4", "RPROMPT", "RPROMPT2",
            "RPS1", "RPS2", "SPROMPT", "NULLCMD", "READNULLCMD", "POSTEDIT", "TMOUT", "PERIOD", "precmd_functions",
            "preexec_functions", "chpwd_functions", "periodic_functions", "zshexit_functions", "zshaddhistory_functions",
            "zsh_directory_name_functions", "SAVEHIST", "HISTSIZE", "histchars", "HISTCHARS", "WORDCHARS", "KEYTIMEOUT",
            "LISTMAX", "REPORTTIME", "REPORTMEMORY", "TIMEFMT", "watch", "WATCH", "WATCHFMT", "LOGCHECK", "MAILCHECK",
            "DIRSTACKSIZE", "STTY", "TERMINFO", "TERMINFO_DIRS", "aliases", "galiases", "saliases", "dis_aliases",
            "dis_galiases", "dis_saliases", "functions", "dis_functions", "functions_source", "dis_functions_source",
            "builtins", "dis_builtins", "commands", "nameddirs", "userdirs", "options", "parameters", "reswords",
            "dis_reswords", "modules", "history", "historywords", "jobdirs", "jobstates", "jobtexts", "termcap",
            "terminfo", "patchars", "dis_patchars", "sysparams", "errnos", "widgets", "keymaps", "zsh_scheduled_events",
            "argv", "ARGV0", "status", "pipestatus", "SECONDS", "RANDOM", "LINENO", "CORRECT_IGNORE",
            "CORRECT_IGNORE_FILE", "ZLE_RPROMPT_INDENT", "zle_bracketed_paste", "ZLE_LINE_ABORTED", "BAUD", "TRAPDEBUG",
            "TRAPEXIT", "TRAPZERR", "ZBEEP", "MAIL", "TRY_BLOCK_ERROR", "TRY_BLOCK_INTERRUPT",
            "ZSH_EVAL_CONTEXT", "zsh_eval_context");

    private Assignments() {}

    /** {@code NAME=value} on its own: sets a shell variable. */
    static void standalone(Analyzer a, Assignment as, Scope scope) {
        Field value = value(a, as, scope);
        Field subscript = as.subscript() == null ? null : a.expander.single(as.subscript(), scope);
        assign(a, scope, as.name(), subscript, value, as.append(), as.span(), "sets");
    }

    /**
     * {@code NAME=value cmd}: the value is in the command's environment. Returns the value.
     *
     * @param passed whether the value is judged as passed to a program here; false before {@code eval},
     *     whose text is judged with it ({@link PosixAssignments}): then only a dangerous name asks here
     */
    static Field prefix(Analyzer a, Assignment as, Scope scope, Span span, boolean passed) {
        Field value = value(a, as, scope);
        if (as.subscript() != null) {
            Arithmetic.subscript(a, as.name(), a.expander.single(as.subscript(), scope), scope, as.span());
        }
        if (passed || as.subscript() != null) {
            environment(a, scope, as.name(), as.span());
        } else if (dangerous(a, scope, as.name())) {
            a.add(Checks.DANGEROUS_VARIABLE, Tier.ASK, "sets " + as.name() + ", which changes what the command runs or how",
                    as.span());
        }
        if (scope.options.integers.contains(as.name())) {
            Arithmetic.check(a, value, scope, as.span());
        }
        return value;
    }

    /**
     * Any assignment the line makes to {@code name}: the special-variable check, exporting
     * ({@code export}-ed names and {@code set -a}), the integer attribute (the value is arithmetic),
     * and the subscript (code). Records the new value.
     *
     * @param subscript the subscript as expanded, or null
     * @param how what makes the assignment, for the message ("sets", "read sets", "for sets")
     */
    static void assign(Analyzer a, Scope scope, String name, Field subscript, Field value, boolean append, Span span,
            String how) {
        a.budget.spend(1);
        if (subscript != null) {
            Arithmetic.subscript(a, name, subscript, scope, span);
        }
        if (dangerous(a, scope, name)) {
            a.add(Checks.DANGEROUS_VARIABLE, Tier.ASK, how + " " + name + ", which changes what later commands run or how",
                    span);
        } else if (scope.exported.contains(name) || scope.options.allexport) {
            environment(a, scope, name, span);
        }
        if (scope.options.allexport) {
            scope.exported.add(name);
        }
        Field stored = value;
        if (scope.options.integers.contains(name)) {
            Arithmetic.check(a, value, scope, span);
            stored = new Field(String.valueOf(Field.NUMBER), java.util.List.of(), false, true);
        } else if (scope.options.untracked.contains(name)) {
            stored = Field.hole();
        }
        set(scope, name, subscript == null ? stored : Field.hole(), append && subscript == null);
    }

    /**
     * An assignment whose target is text the shell reads at run time ({@code read 'a[i]'},
     * {@code declare x=1}, {@code printf -v x}): the name, and a subscript after it.
     */
    public static void assignText(Analyzer a, Scope scope, Field target, Field value, Span span, String how) {
        String t = target.textWithoutPatterns();
        int open = t.indexOf('[');
        String name = open < 0 ? t : t.substring(0, open);
        if (!isName(name)) {
            a.add(Checks.SHELL_STATE, Tier.ASK, how + " a variable whose name is not known here (" + target.display() + ")", span);
            return;
        }
        Field subscript = null;
        if (open >= 0) {
            if (!t.endsWith("]")) {
                a.add(Checks.SHELL_STATE, Tier.ASK, how + " " + target.display() + ", which is not a variable name", span);
                return;
            }
            subscript = new Field(t.substring(open + 1, t.length() - 1), target.producers(), false, true);
        }
        assign(a, scope, name, subscript, value, false, span, how);
    }

    /** A variable given to a command's environment by name (prefix, env, export). */
    public static void environment(Analyzer a, Scope scope, String name, Span span) {
        if (dangerous(a, scope, name)) {
            a.add(Checks.DANGEROUS_VARIABLE, Tier.ASK, "sets " + name + ", which changes what the command runs or how", span);
        } else if (!a.policy.envSafe.contains(name)) {
            a.add(Checks.ENVIRONMENT, Tier.ASK, "passes " + name + " in the environment, which may change how programs "
                    + "behave; " + name + " is not on the list of safe variables", span);
        }
    }

    /** The same for a command started outside any shell state ({@code env NAME=x cmd}). */
    public static void environment(Analyzer a, String name, Span span) {
        environment(a, null, name, span);
    }

    /** Whether setting {@code name} changes what runs or how: the policy's list, and zsh's own specials in zsh. */
    static boolean dangerous(Analyzer a, Scope scope, String name) {
        return a.policy.envDangerous.contains(name) || scope != null && scope.dialect == Dialect.ZSH && ZSH_SPECIAL.contains(name);
    }

    public static boolean isName(String name) {
        if (name.isEmpty() || !(Character.isLetter(name.charAt(0)) || name.charAt(0) == '_')) {
            return false;
        }
        for (int i = 1; i < name.length(); i++) {
            char c = name.charAt(i);
            if (!(c < 128 && (Character.isLetterOrDigit(c) || c == '_'))) {
                return false;
            }
        }
        return name.charAt(0) < 128;
    }

    static void set(Scope scope, String name, Field value, boolean append) {
        if (name.equals("IFS")) {
            scope.options.ifsChanged = true;
        }
        if (name.equals("POSIXLY_CORRECT") && scope.dialect == Dialect.BASH) {
            // bash switches to POSIX mode when the variable is set to anything, the empty string too
            scope.options.posix = true;
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
                if (!w.parts().isEmpty() && w.parts().getFirst() instanceof Part.Literal l && !l.quoted()
                        && l.text().startsWith("[")) {
                    // [SUB]=value: bash neither splits nor globs it
                    element(a, as.name(), a.expander.single(w, scope), scope, as.span());
                } else {
                    a.expander.expand(w, scope);
                }
            }
            return Field.hole();
        }
        return a.expander.single(as.value(), scope).asExpanded();
    }

    /**
     * One element of {@code NAME=(...)}: {@code [SUB]=value} names its index, and bash expands SUB
     * and then evaluates it as arithmetic ({@code a=(['$(cmd)']=1)} runs cmd), so SUB is code.
     * Quoting the bracket would make it a plain value; judging it as a subscript anyway only asks more.
     */
    private static void element(Analyzer a, String array, Field f, Scope scope, Span span) {
        String t = f.textWithoutPatterns();
        if (t.isEmpty() || t.charAt(0) != '[') {
            return;
        }
        int depth = 0;
        for (int i = 0; i < t.length(); i++) {
            char c = t.charAt(i);
            if (c == '[') {
                depth++;
            } else if (c == ']' && --depth == 0) {
                if (t.startsWith("=", i + 1) || t.startsWith("+=", i + 1)) {
                    Arithmetic.subscript(a, array, new Field(t.substring(1, i), f.producers(), false, true), scope, span);
                }
                return;
            }
        }
    }
}
