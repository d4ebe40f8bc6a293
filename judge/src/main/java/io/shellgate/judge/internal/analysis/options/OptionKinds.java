package io.shellgate.judge.internal.analysis.options;

import io.shellgate.judge.internal.analysis.model.Field;
import io.shellgate.rules.OptionSpec;

/** What an option's value kind accepts, checked while the options are parsed. */
final class OptionKinds {

    private OptionKinds() {}

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
