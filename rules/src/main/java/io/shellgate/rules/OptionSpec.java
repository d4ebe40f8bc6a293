package io.shellgate.rules;

import java.util.List;

/**
 * One permitted option of a command, written in policy files as a short string.
 *
 * <ul>
 *   <li>{@code -x}: a short flag; short flags may be bundled ({@code -la});
 *   <li>{@code -x=KIND}: a short option with a value, attached ({@code -n5}) or in the next word;
 *   <li>{@code --name}: a long flag;
 *   <li>{@code --name=KIND}: a long option with a value ({@code --name=v} or {@code --name v});
 *   <li>{@code --name=?KIND}: a long option whose value, if any, is attached ({@code --color=auto});
 *   <li>{@code -x=?KIND}: a short option whose value, if any, is attached ({@code date -Iseconds});
 *   <li>{@code -name} / {@code -name=KIND}: a single-dash word option ({@code find -name x});
 *   <li>{@code -NUM}: a number as an option ({@code head -20});
 *   <li>{@code *}: any option at all (for commands like {@code echo} that print their arguments).
 * </ul>
 *
 * <p>KIND says what the value is, which decides how it is checked: {@code text} (printed or
 * compared), {@code num} (a number), {@code pattern} (a regular expression or file name pattern),
 * {@code file} (a file the command reads: checked against the sensitive paths), {@code out} (a
 * file the command writes: asks, unless it is a harmless output such as {@code /dev/null}),
 * {@code code} (a program or command the option runs: always asks), or {@code {a,b,c}} (one of
 * these words). Without a kind ({@code -x=}, the older form) the value may be anything and is
 * checked as a file the command reads.
 */
public record OptionSpec(String name, Arity arity, Value value, List<String> choices) {

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

    /** What an option's value is. */
    public enum Value {
        /** Written without a kind: anything, checked as a file that is read. */
        UNSPECIFIED(""),
        TEXT("text"),
        NUMBER("num"),
        PATTERN("pattern"),
        /** A file the command reads. */
        FILE("file"),
        /** A file the command writes. */
        OUTPUT("out"),
        /** A command or program the option makes the command run. */
        CODE("code"),
        /** One of a fixed list of words. */
        CHOICE("{...}");

        private final String keyword;

        Value(String keyword) {
            this.keyword = keyword;
        }

        public String keyword() {
            return keyword;
        }
    }

    public OptionSpec {
        choices = List.copyOf(choices);
    }

    /** An option without a value kind, as older policy files write them. */
    public OptionSpec(String name, Arity arity) {
        this(name, arity, Value.UNSPECIFIED, List.of());
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
        String kind = "";
        int eq = spec.indexOf('=', 1);
        if (eq > 0) {
            name = spec.substring(0, eq);
            kind = spec.substring(eq + 1);
            arity = Arity.REQUIRED;
            if (kind.startsWith("?")) {
                arity = Arity.OPTIONAL;
                kind = kind.substring(1);
            }
        }
        if (!name.matches("--?[A-Za-z0-9?@#.][A-Za-z0-9_.:?@#+-]*")) {
            throw new IllegalArgumentException("'" + spec + "' is not an option spec; write -x, -x=KIND, --name,"
                    + " --name=KIND, --name=?KIND, -name, -NUM or *");
        }
        if (kind.startsWith("{")) {
            if (!kind.endsWith("}") || kind.length() < 3) {
                throw new IllegalArgumentException("'" + spec + "': a list of values is written {a,b,c}");
            }
            List<String> words = List.of(kind.substring(1, kind.length() - 1).split(",", -1));
            for (String w : words) {
                if (w.isEmpty() || !w.matches("[A-Za-z0-9_.:+-]+")) {
                    throw new IllegalArgumentException("'" + spec + "': '" + w + "' is not a value word; write {a,b,c}");
                }
            }
            return new OptionSpec(name, arity, Value.CHOICE, words);
        }
        for (Value v : Value.values()) {
            if (v != Value.CHOICE && v.keyword.equals(kind)) {
                return new OptionSpec(name, arity, v, List.of());
            }
        }
        throw new IllegalArgumentException("'" + spec + "': '" + kind + "' is not a value kind; write text, num,"
                + " pattern, file, out, code or {a,b,c} after the =");
    }

    @Override
    public String toString() {
        String kind = value == Value.CHOICE ? "{" + String.join(",", choices) + "}" : value.keyword;
        return switch (arity) {
            case NONE, NUMERIC, ANY -> name;
            case REQUIRED -> name + "=" + kind;
            case OPTIONAL -> name + "=?" + kind;
        };
    }
}
