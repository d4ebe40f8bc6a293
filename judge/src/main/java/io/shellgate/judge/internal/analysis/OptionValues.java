package io.shellgate.judge.internal.analysis;

import io.shellgate.rules.OptionSpec;
import io.shellgate.rules.Tier;

/**
 * Checks an option's value by the kind its grammar gives it: a file read is checked against the
 * sensitive paths, a file written is judged as a write, code asks, a number or a word from a list
 * must be one.
 */
final class OptionValues {

    private OptionValues() {}

    /** Why the value does not fit its kind, found while parsing (the option is then not permitted); null if it fits. */
    static String problem(OptionSpec spec, String name, Field value) {
        return switch (spec.value()) {
            case CODE -> "the option " + name + " runs a program or code given to it";
            case NUMBER -> value.hasUnknown() || isNumber(value.plain()) ? null
                    : "the value of the option " + name + " (" + value.display() + ") is not a number";
            case CHOICE -> !value.isLiteral() ? "the value of the option " + name + " is computed at run time"
                    : spec.choices().contains(value.plain()) ? null
                    : "the value of the option " + name + " (" + value.display() + ") is not one of " + String.join(", ", spec.choices());
            case UNSPECIFIED, TEXT, PATTERN, FILE, OUTPUT -> null;
        };
    }

    /** Checks what the command does with the value: reads it, writes it. */
    static void check(Analyzer a, CommandJudge.Invocation inv, OptionParser.Opt o) {
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
    static void judgeCode(Analyzer a, CommandJudge.Invocation inv, OptionParser.Parsed parsed) {
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
    static void judgeCollectedCode(Analyzer a, CommandJudge.Invocation inv) {
        for (Field f : inv.code) {
            Special.code(a, inv, f, io.shellgate.judge.Dialect.SH, Special.child(inv, io.shellgate.judge.Dialect.SH, null),
                    "an option's program");
        }
        inv.code.clear();
    }

    /** {@code 10}, {@code -5}, {@code +3}, {@code 1.5}, {@code 4K}, {@code 0x1f}: a sign, a digit, then digits, letters and dots. */
    static boolean isNumber(String t) {
        int i = t.startsWith("+") || t.startsWith("-") ? 1 : 0;
        if (i >= t.length() || !Character.isDigit(t.charAt(i))) {
            return false;
        }
        for (; i < t.length(); i++) {
            char c = t.charAt(i);
            if (!(c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '.' || c == ',' || c == ':')) {
                return false;
            }
        }
        return true;
    }
}
