package io.shellgate.rules;

/**
 * One permitted option of a command, written in policy files as a short string.
 *
 * <ul>
 *   <li>{@code -x}: a short flag; short flags may be bundled ({@code -la});
 *   <li>{@code -x=}: a short option with a value, attached ({@code -n5}) or in the next word;
 *   <li>{@code --name}: a long flag;
 *   <li>{@code --name=}: a long option with a value ({@code --name=v} or {@code --name v});
 *   <li>{@code --name=?}: a long option whose value, if any, is attached ({@code --color=auto});
 *   <li>{@code -x=?}: a short option whose value, if any, is attached ({@code date -Iseconds});
 *   <li>{@code -name} / {@code -name=}: a single-dash word option ({@code find -name x});
 *   <li>{@code -NUM}: a number as an option ({@code head -20});
 *   <li>{@code *}: any option at all (for commands like {@code echo} that print their arguments).
 * </ul>
 */
public record OptionSpec(String name, Arity arity) {

    /** How an option takes its value. */
    public enum Arity {
        /** A flag without a value. */
        NONE,
        /** A value is required, attached or in the next word. */
        REQUIRED,
        /** A value may be attached with {@code =}; the next word is never taken. */
        OPTIONAL,
        /** {@code -NUM}: a dash followed by digits. */
        NUMERIC,
        /** Any option is accepted. */
        ANY
    }

    /** Whether this is a single-letter short option ({@code -x}). */
    public boolean isShort() {
        return name.length() == 2 && name.charAt(0) == '-' && name.charAt(1) != '-';
    }

    /** Whether this is a {@code --long} option. */
    public boolean isLong() {
        return name.startsWith("--");
    }

    /**
     * Parses one option spec.
     *
     * @throws IllegalArgumentException with a sentence saying what is wrong and what is accepted
     */
    public static OptionSpec parse(String spec) {
        if (spec.equals("*")) {
            return new OptionSpec("*", Arity.ANY);
        }
        if (spec.equals("-NUM")) {
            return new OptionSpec("-NUM", Arity.NUMERIC);
        }
        String name = spec;
        Arity arity = Arity.NONE;
        if (spec.endsWith("=?")) {
            name = spec.substring(0, spec.length() - 2);
            arity = Arity.OPTIONAL;
        } else if (spec.endsWith("=")) {
            name = spec.substring(0, spec.length() - 1);
            arity = Arity.REQUIRED;
        }
        if (!name.matches("--?[A-Za-z0-9?@#.][A-Za-z0-9_.:?@#+-]*")) {
            throw new IllegalArgumentException("'" + spec + "' is not an option spec; write -x, -x=, --name,"
                    + " --name=, --name=?, -name, -NUM or *");
        }
        return new OptionSpec(name, arity);
    }

    @Override
    public String toString() {
        return switch (arity) {
            case NONE, NUMERIC, ANY -> name;
            case REQUIRED -> name + "=";
            case OPTIONAL -> name + "=?";
        };
    }
}
