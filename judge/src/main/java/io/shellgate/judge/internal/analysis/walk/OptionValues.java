package io.shellgate.judge.internal.analysis.walk;

import io.shellgate.judge.internal.analysis.model.Checks;
import io.shellgate.judge.internal.analysis.model.Field;
import io.shellgate.judge.internal.analysis.options.OptionParser;
import io.shellgate.rules.Tier;

/**
 * Checks an option's value by the kind its grammar gives it: a file read is checked against the
 * sensitive paths, a file written is judged as a write, code asks, a number or a word from a list
 * must be one.
 */
final class OptionValues {

    private OptionValues() {}

    /** Checks what the command does with the value: reads it, writes it. */
    static void check(Analyzer a, Invocation inv, OptionParser.Opt o) {
        Field v = o.value();
        if (v == null) {
            return;
        }
        if (v.hasHoles()) {
            // unquoted, its words may split, and the words after the first are operands
            a.add(Checks.DYNAMIC_ARGUMENT, Tier.ASK, "the value of " + o.name() + " (" + v.display()
                    + ") is computed at run time", inv.span());
            return;
        }
        if (o.spec() == null) {
            // an option of a command that takes any option: only a value that looks like a path is one
            if (v.plain().contains("/") || v.plain().startsWith("~") || v.plain().startsWith(".")) {
                Sensitive.checkRead(a, v, inv.scope, inv.span(), "reads");
            }
            return;
        }
        switch (o.spec().value()) {
            case FILE, UNSPECIFIED -> Sensitive.checkRead(a, v, inv.scope, inv.span(), "reads");
            case OUTPUT -> Redirects.write(a, v, inv.scope, inv.span());
            case TEXT, PATTERN, NUMBER, CHOICE, CODE -> {
                // not a path
            }
        }
    }

    /**
     * Judges the values of options that run commands as the shell code they become: the option
     * already asks, and a catastrophe there ({@code git grep --open-files-in-pager='rm -rf ~'}) is
     * refused.
     */
    static void judgeCode(Analyzer a, Invocation inv, OptionParser.Parsed parsed) {
        // kept on the invocation and judged once its entries are done: an entry that gives up drops its own reasons
        for (Field f : parsed.code()) {
            // a bare program name (rg --pre cat, awk -f prog.awk) asks already; a command line is judged too
            if (f.isLiteral() && isCommandLine(f.plain()) && inv.code.stream().noneMatch(c -> c.text().equals(f.text()))) {
                inv.code.add(f);
            }
        }
    }

    private static boolean isCommandLine(String t) {
        for (int i = 0; i < t.length(); i++) {
            if (" \t\n;|&$`<>(){}".indexOf(t.charAt(i)) >= 0) {
                return true;
            }
        }
        return false;
    }

    /** Judges the code values the invocation's entries found. */
    static void judgeCollectedCode(Analyzer a, Invocation inv) {
        for (Field f : inv.code) {
            NestedCode.code(a, inv, f, io.shellgate.judge.Dialect.SH, NestedCode.child(inv, io.shellgate.judge.Dialect.SH, null),
                    "an option's program");
        }
        inv.code.clear();
    }
}
