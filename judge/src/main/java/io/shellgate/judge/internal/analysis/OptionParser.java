package io.shellgate.judge.internal.analysis;

import io.shellgate.rules.OptionSpec;
import io.shellgate.rules.ReadOnlyCommand;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Splits arguments into options and operands with a command's permitted-option list, the way
 * GNU getopt would: bundled short flags, attached and separate values, {@code --long=value},
 * {@code --} ending the options, options after operands.
 */
final class OptionParser {

    /** One option found, with its value (null for a flag). */
    record Opt(String name, Field value, Field raw) {}

    /**
     * What parsing found.
     *
     * @param problems sentences about options that are not on the list
     * @param dynamic arguments that were computed at run time and might be options
     */
    record Parsed(List<Opt> options, List<Field> operands, List<String> problems, List<Field> dynamic) {

        boolean has(String name) {
            for (Opt o : options) {
                if (o.name.equals(name)) {
                    return true;
                }
            }
            return false;
        }

        boolean hasAny(List<String> names) {
            for (String n : names) {
                if (has(n)) {
                    return true;
                }
            }
            return false;
        }
    }

    private final Map<Character, OptionSpec> shortSpecs = new HashMap<>();
    private final Map<String, OptionSpec> longSpecs = new HashMap<>();
    private final boolean numeric;
    private final boolean any;
    private final boolean words;
    private final boolean posix;

    OptionParser(List<OptionSpec> specs, ReadOnlyCommand.Style style) {
        boolean num = false;
        boolean anything = false;
        for (OptionSpec s : specs) {
            switch (s.arity()) {
                case NUMERIC -> num = true;
                case ANY -> anything = true;
                default -> {
                    if (s.isShort()) {
                        shortSpecs.put(s.name().charAt(1), s);
                    }
                    longSpecs.put(s.name(), s);
                }
            }
        }
        this.numeric = num;
        this.any = anything;
        this.words = style == ReadOnlyCommand.Style.WORDS;
        this.posix = style == ReadOnlyCommand.Style.POSIX;
    }

    /**
     * Parses {@code args}.
     *
     * @param stopAtOperand whether the first operand ends the options (wrappers, xargs)
     */
    Parsed parse(List<Field> args, boolean stopAtOperandAsked) {
        boolean stopAtOperand = stopAtOperandAsked || posix;
        List<Opt> options = new ArrayList<>();
        List<Field> operands = new ArrayList<>();
        List<String> problems = new ArrayList<>();
        List<Field> dynamic = new ArrayList<>();
        boolean ended = false;
        for (int i = 0; i < args.size(); i++) {
            Field f = args.get(i);
            String t = f.text();
            if (ended) {
                operands.add(f);
                continue;
            }
            if (t.equals("--")) {
                ended = true;
                continue;
            }
            if (!t.isEmpty() && t.charAt(0) == Field.HOLE) {
                dynamic.add(f);
                operands.add(f);
                if (stopAtOperand) {
                    ended = true;
                }
                continue;
            }
            if (t.length() < 2 || t.charAt(0) != '-') {
                operands.add(f);
                if (stopAtOperand) {
                    ended = true;
                }
                continue;
            }
            if (!f.isLiteral() && t.indexOf('=') < 0) {
                problems.add("the option " + f.display() + " is computed at run time");
                continue;
            }
            if (t.startsWith("--")) {
                i = longOption(args, i, f, options, problems);
            } else if (words || longSpecs.containsKey(nameOf(t))) {
                i = wordOption(args, i, f, options, problems);
            } else if (numeric && t.substring(1).chars().allMatch(Character::isDigit)) {
                options.add(new Opt("-NUM", Field.literal(t.substring(1)), f));
            } else if (any) {
                options.add(new Opt(nameOf(t), null, f));
            } else {
                i = bundle(args, i, f, options, problems);
            }
        }
        return new Parsed(options, operands, problems, dynamic);
    }

    /**
     * A separate value that looks like a long option ({@code rg -T --pre sh}): getopt takes it as
     * the value, other parsers may not. Never guess.
     */
    private static boolean ambiguous(Field next) {
        String t = next.plain();
        return t.length() > 2 && t.startsWith("--");
    }

    private static String nameOf(String t) {
        int eq = t.indexOf('=');
        return eq > 0 ? t.substring(0, eq) : t;
    }

    private int longOption(List<Field> args, int i, Field f, List<Opt> options, List<String> problems) {
        String t = f.text();
        int eq = t.indexOf('=');
        String name = eq > 0 ? t.substring(0, eq) : t;
        Field attached = eq > 0 ? new Field(t.substring(eq + 1), f.producers(), f.processSub()) : null;
        OptionSpec spec = longSpecs.get(name);
        if (spec == null) {
            if (any) {
                options.add(new Opt(name, attached, f));
            } else {
                problems.add("the option " + name + " is not on the permitted list");
            }
            return i;
        }
        switch (spec.arity()) {
            case REQUIRED -> {
                return value(args, i, name, attached, f, true, options, problems);
            }
            case OPTIONAL -> options.add(new Opt(name, attached, f));
            default -> {
                if (attached != null) {
                    problems.add("the option " + name + " takes no value");
                } else {
                    options.add(new Opt(name, null, f));
                }
            }
        }
        return i;
    }

    /**
     * Takes the value of an option that needs one: {@code attached} when it came with one, else
     * the next argument, unless {@code strict} and that looks like an option of its own (getopt
     * would take it, other parsers may not: never guess). Returns the index of the last argument
     * used.
     */
    private static int value(List<Field> args, int i, String name, Field attached, Field f, boolean strict,
            List<Opt> options, List<String> problems) {
        if (attached != null) {
            options.add(new Opt(name, attached, f));
        } else if (i + 1 < args.size() && strict && ambiguous(args.get(i + 1))) {
            problems.add("the value of " + name + " (" + args.get(i + 1).display() + ") looks like an option");
        } else if (i + 1 < args.size()) {
            options.add(new Opt(name, args.get(i + 1), f));
            return i + 1;
        } else {
            problems.add("the option " + name + " needs a value");
        }
        return i;
    }

    private int wordOption(List<Field> args, int i, Field f, List<Opt> options, List<String> problems) {
        String t = f.text();
        String name = nameOf(t);
        OptionSpec spec = longSpecs.get(name);
        if (spec == null) {
            if (any) {
                options.add(new Opt(name, null, f));
            } else {
                problems.add("the option " + name + " is not on the permitted list");
            }
            return i;
        }
        if (spec.arity() == OptionSpec.Arity.REQUIRED) {
            Field attached = t.length() > name.length() ? new Field(t.substring(name.length() + 1), f.producers(), f.processSub()) : null;
            return value(args, i, name, attached, f, !words, options, problems);
        }
        options.add(new Opt(name, null, f));
        return i;
    }

    private int bundle(List<Field> args, int i, Field f, List<Opt> options, List<String> problems) {
        String t = f.text();
        for (int j = 1; j < t.length(); j++) {
            char c = t.charAt(j);
            OptionSpec spec = shortSpecs.get(c);
            if (spec == null) {
                problems.add("the option -" + Field.unmark(c) + " is not on the permitted list");
                return i;
            }
            String rest = t.substring(j + 1);
            switch (spec.arity()) {
                case REQUIRED -> {
                    Field attached = rest.isEmpty() ? null : new Field(rest, f.producers(), f.processSub());
                    return value(args, i, "-" + c, attached, f, true, options, problems);
                }
                case OPTIONAL -> {
                    options.add(new Opt("-" + c, rest.isEmpty() ? null : Field.literal(rest), f));
                    return i;
                }
                default -> options.add(new Opt("-" + c, null, f));
            }
        }
        return i;
    }
}
