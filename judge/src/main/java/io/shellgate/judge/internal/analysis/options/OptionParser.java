package io.shellgate.judge.internal.analysis.options;

import io.shellgate.judge.internal.analysis.model.Field;
import io.shellgate.rules.OptionSpec;
import io.shellgate.rules.ReadOnlyCommand;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Splits arguments into options and operands with a command's option grammar, the way the
 * program's own parser would: GNU {@code getopt_long} (bundled short flags, {@code -ovalue},
 * {@code --long=value}, options after operands, {@code --}), POSIX utilities (options end at the
 * first operand), single-dash word options ({@code find}), and git's parse-options
 * ({@code --no-} forms of the options listed).
 *
 * <p>{@code getopt_long} and git take any unique abbreviation of a long option. An abbreviation
 * is recognised but never permitted: an option the program has and the grammar does not list (a
 * newer version's, say) wins over the abbreviation when its name is written in full, so only a
 * name written in full is known to mean what the grammar says.
 */
public final class OptionParser {

    /** One option found: its name as the grammar writes it, its value (null for a flag) and its spec. */
    public record Opt(String name, Field value, Field raw, OptionSpec spec) {

        Opt(String name, Field value, Field raw) {
            this(name, value, raw, null);
        }
    }

    /**
     * What parsing found.
     *
     * @param problems sentences about options that are not on the list
     * @param dynamic arguments that were computed at run time and might be options
     * @param code the values of options that run them as commands (written in full or abbreviated),
     *     to be judged as shell code: a catastrophe there is refused, not only asked about
     */
    public record Parsed(List<Opt> options, List<Field> operands, List<String> problems, List<Field> dynamic, List<Field> code) {

        public boolean has(String name) {
            int eq = name.indexOf('=', 1);
            String n = eq > 0 ? name.substring(0, eq) : name;
            for (Opt o : options) {
                if (o.name.equals(n) && (eq < 0 || o.value != null && o.value.plain().equals(name.substring(eq + 1)))) {
                    return true;
                }
            }
            return false;
        }

        /** Whether one of {@code names} was given; {@code -d=recurse} means that option with that value. */
        public boolean hasAny(List<String> names) {
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
    private final Map<String, OptionSpec> wordSpecs = new HashMap<>();
    private final boolean numeric;
    private final boolean any;
    private final boolean words;
    private final boolean posix;
    private final boolean git;

    public OptionParser(List<OptionSpec> specs, ReadOnlyCommand.Style style) {
        boolean num = false;
        boolean anything = false;
        for (OptionSpec s : specs) {
            switch (s.arity()) {
                case NUMERIC -> num = true;
                case ANY -> anything = true;
                default -> {
                    if (s.isShort()) {
                        shortSpecs.put(s.name().charAt(1), s);
                    } else if (s.isLong()) {
                        longSpecs.put(s.name(), s);
                    }
                    if (!s.isLong()) {
                        wordSpecs.put(s.name(), s);
                    }
                }
            }
        }
        this.numeric = num;
        this.any = anything;
        this.words = style == ReadOnlyCommand.Style.WORDS;
        this.posix = style == ReadOnlyCommand.Style.POSIX;
        this.git = style == ReadOnlyCommand.Style.GIT;
    }

    /**
     * Parses {@code args}.
     *
     * @param stopAtOperandAsked whether the first operand ends the options (wrappers, xargs)
     */
    public Parsed parse(List<Field> args, boolean stopAtOperandAsked) {
        boolean stopAtOperand = stopAtOperandAsked || posix;
        List<Opt> options = new ArrayList<>();
        List<Field> operands = new ArrayList<>();
        List<String> problems = new ArrayList<>();
        List<Field> dynamic = new ArrayList<>();
        List<Field> code = new ArrayList<>();
        Out out = new Out(options, problems, code);
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
            if (!f.isLiteral() && nameOf(t).chars().anyMatch(c -> Field.isMarker((char) c))) {
                problems.add("the option " + f.display() + " is computed at run time");
                continue;
            }
            if (t.startsWith("--")) {
                i = longOption(args, i, f, out);
            } else if (words || nameOf(t).length() > 2 && wordSpecs.containsKey(nameOf(t))) {
                i = wordOption(args, i, f, out);
            } else if (numeric && t.substring(1).chars().allMatch(Character::isDigit)) {
                options.add(new Opt("-NUM", Field.literal(t.substring(1)), f));
            } else if (any) {
                options.add(new Opt(nameOf(t), null, f));
            } else {
                i = bundle(args, i, f, out);
            }
        }
        return new Parsed(options, operands, problems, dynamic, code);
    }

    /** What one parse collects; a parser is shared between threads, so it keeps nothing of its own. */
    private record Out(List<Opt> options, List<String> problems, List<Field> code) {}

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

    private int longOption(List<Field> args, int i, Field f, Out out) {
        List<Opt> options = out.options();
        List<String> problems = out.problems();
        List<Field> code = out.code();
        String t = f.text();
        int eq = t.indexOf('=');
        String name = eq > 0 ? t.substring(0, eq) : t;
        Field attached = eq > 0 ? new Field(t.substring(eq + 1), f.producers(), f.processSub(), f.expanded()) : null;
        OptionSpec spec = longSpecs.get(name);
        if (spec == null && git && name.startsWith("--no-") && attached == null) {
            // git's parse-options takes --no-NAME as the negation of every option NAME it has
            OptionSpec positive = longSpecs.get("--" + name.substring(5));
            if (positive != null) {
                options.add(new Opt(name, null, f, new OptionSpec(name, OptionSpec.Arity.NONE)));
                return i;
            }
        }
        if (spec == null) {
            if (any) {
                options.add(new Opt(name, attached, f));
            } else {
                problems.add(unknown(name));
                OptionSpec meant = abbreviated(name);
                if (meant != null && meant.value() == OptionSpec.Value.CODE) {
                    // git grep --ope=CMD is --open-files-in-pager=CMD to git
                    if (attached != null) {
                        code.add(attached);
                    } else if (meant.arity() == OptionSpec.Arity.REQUIRED && i + 1 < args.size()) {
                        code.add(args.get(i + 1));
                    }
                }
            }
            return i;
        }
        switch (spec.arity()) {
            case REQUIRED -> {
                return value(args, i, spec, name, attached, f, true, out);
            }
            case OPTIONAL -> {
                return accept(spec, name, attached, f, out, i);
            }
            default -> {
                if (attached != null) {
                    problems.add("the option " + name + " takes no value");
                } else {
                    options.add(new Opt(name, null, f, spec));
                }
            }
        }
        return i;
    }

    /** The one listed long option that {@code name} abbreviates, or null. */
    private OptionSpec abbreviated(String name) {
        OptionSpec found = null;
        for (var e : longSpecs.entrySet()) {
            if (e.getKey().startsWith(name)) {
                if (found != null) {
                    return null;
                }
                found = e.getValue();
            }
        }
        return found;
    }

    /** Why an unlisted long option asks, naming what it abbreviates when it does. */
    private String unknown(String name) {
        List<String> matches = new ArrayList<>();
        for (String n : longSpecs.keySet()) {
            if (n.startsWith(name)) {
                matches.add(n);
            }
        }
        if (git && name.startsWith("--no-")) {
            for (String n : longSpecs.keySet()) {
                if (("--no-" + n.substring(2)).startsWith(name)) {
                    matches.add("--no-" + n.substring(2));
                }
            }
        }
        if (matches.size() == 1) {
            return "the option " + name + " is an abbreviation of " + matches.getFirst() + " (write options in full:"
                    + " an option the program has that is not listed here would win over the abbreviation)";
        }
        return "the option " + name + " is not on the permitted list";
    }

    /**
     * Takes the value of an option that needs one: {@code attached} when it came with one, else
     * the next argument, unless {@code strict} and that looks like an option of its own (getopt
     * would take it, other parsers may not: never guess). Returns the index of the last argument
     * used.
     */
    private static int value(List<Field> args, int i, OptionSpec spec, String name, Field attached, Field f, boolean strict,
            Out out) {
        List<String> problems = out.problems();
        if (attached != null) {
            return accept(spec, name, attached, f, out, i);
        } else if (i + 1 < args.size() && strict && ambiguous(args.get(i + 1))) {
            problems.add("the value of " + name + " (" + args.get(i + 1).display() + ") looks like an option");
        } else if (i + 1 < args.size()) {
            return accept(spec, name, args.get(i + 1), f, out, i + 1);
        } else {
            problems.add("the option " + name + " needs a value");
        }
        return i;
    }

    /** Records an option with its value after the checks its value kind needs at parse time. */
    private static int accept(OptionSpec spec, String name, Field value, Field raw, Out out, int index) {
        List<Opt> options = out.options();
        List<String> problems = out.problems();
        if (spec.value() == OptionSpec.Value.CODE && value != null) {
            out.code().add(value);
        }
        // an option that runs code asks with or without its value (git grep -O opens the default pager)
        String why = spec.value() == OptionSpec.Value.CODE ? OptionKinds.problem(spec, name, Field.literal(""))
                : value == null ? null : OptionKinds.problem(spec, name, value);
        if (why != null) {
            problems.add(why);
        } else {
            options.add(new Opt(name, value, raw, spec));
        }
        return index;
    }

    private int wordOption(List<Field> args, int i, Field f, Out out) {
        List<Opt> options = out.options();
        List<String> problems = out.problems();
        String t = f.text();
        String name = nameOf(t);
        OptionSpec spec = wordSpecs.get(name);
        if (spec == null) {
            if (any) {
                options.add(new Opt(name, null, f));
            } else {
                problems.add("the option " + name + " is not on the permitted list");
            }
            return i;
        }
        Field attached = t.length() > name.length() ? new Field(t.substring(name.length() + 1), f.producers(), f.processSub(),
                f.expanded()) : null;
        return switch (spec.arity()) {
            case REQUIRED -> value(args, i, spec, name, attached, f, !words, out);
            case OPTIONAL -> accept(spec, name, attached, f, out, i);
            default -> {
                if (attached != null) {
                    problems.add("the option " + name + " takes no value");
                } else {
                    options.add(new Opt(name, null, f, spec));
                }
                yield i;
            }
        };
    }

    private int bundle(List<Field> args, int i, Field f, Out out) {
        List<Opt> options = out.options();
        List<String> problems = out.problems();
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
                    Field attached = rest.isEmpty() ? null : new Field(rest, f.producers(), f.processSub(), f.expanded());
                    return value(args, i, spec, "-" + c, attached, f, true, out);
                }
                case OPTIONAL -> {
                    return accept(spec, "-" + c, rest.isEmpty() ? null : new Field(rest, f.producers(), f.processSub(),
                            f.expanded()), f, out, i);
                }
                default -> options.add(new Opt("-" + c, null, f, spec));
            }
        }
        return i;
    }
}
