package io.shellgate.judge.internal.analysis.options;

import io.shellgate.judge.internal.analysis.model.Field;
import java.util.ArrayList;
import java.util.List;

/**
 * The option syntax of shell builtins (bash's {@code internal_getopt}, zsh's builtin option
 * strings): letters bundled in one word ({@code -rp}), a value attached or in the next word
 * ({@code -d:} or {@code -d :}), {@code +x} to turn an attribute off where the builtin takes it,
 * {@code --} and the first operand ending the options. A letter not in the grammar is a problem:
 * the judge asks rather than guess what an unknown option does.
 */
public final class BuiltinArgs {

    /**
     * One option as given.
     *
     * @param plus whether it was written {@code +x}
     * @param value its value, or null
     */
    record Opt(char letter, boolean plus, Field value) {}

    /**
     * @param problem why the arguments do not fit the grammar, or null
     */
    public record Parsed(List<Opt> options, List<Field> operands, String problem) {

        public boolean has(char letter) {
            for (Opt o : options) {
                if (o.letter() == letter && !o.plus()) {
                    return true;
                }
            }
            return false;
        }

        public boolean hasAny(char letter) {
            for (Opt o : options) {
                if (o.letter() == letter) {
                    return true;
                }
            }
            return false;
        }

        public Field value(char letter) {
            Field v = null;
            for (Opt o : options) {
                if (o.letter() == letter && o.value() != null) {
                    v = o.value();
                }
            }
            return v;
        }
    }

    /**
     * A grammar.
     *
     * @param flags letters that take no value
     * @param valued letters that take a value (attached, or the next word)
     * @param optionalNumber letters that take an optional number, attached or as the next word (zsh's {@code -L 10})
     * @param plus whether {@code +x} is accepted
     */
    public record Grammar(String flags, String valued, String optionalNumber, boolean plus) {

        public static Grammar of(String flags, String valued) {
            return new Grammar(flags, valued, "", false);
        }

        public static Grammar plus(String flags, String valued) {
            return new Grammar(flags, valued, "", true);
        }
    }

    private BuiltinArgs() {}

    public static Parsed parse(List<Field> args, Grammar g) {
        List<Opt> options = new ArrayList<>();
        int i = 0;
        for (; i < args.size(); i++) {
            Field f = args.get(i);
            String t = f.text();
            if (t.equals("--")) {
                i++;
                break;
            }
            boolean minus = t.startsWith("-");
            boolean plus = g.plus() && t.startsWith("+");
            if (!minus && !plus || t.length() < 2) {
                if (!t.isEmpty() && t.charAt(0) == Field.HOLE) {
                    return new Parsed(options, List.of(), "the argument " + f.display() + " is computed at run time and could be an option");
                }
                break;
            }
            for (int j = 1; j < t.length(); j++) {
                char c = t.charAt(j);
                if (g.flags().indexOf(c) >= 0) {
                    options.add(new Opt(c, plus, null));
                } else if (g.valued().indexOf(c) >= 0) {
                    Field value;
                    if (j + 1 < t.length()) {
                        value = new Field(t.substring(j + 1), f.producers(), f.processSub(), f.expanded());
                    } else if (i + 1 < args.size()) {
                        value = args.get(++i);
                    } else {
                        return new Parsed(options, List.of(), "the option " + (plus ? "+" : "-") + c + " needs a value");
                    }
                    options.add(new Opt(c, plus, value));
                    break;
                } else if (g.optionalNumber().indexOf(c) >= 0) {
                    String rest = t.substring(j + 1);
                    Field value = null;
                    if (!rest.isEmpty() && rest.chars().allMatch(Character::isDigit)) {
                        value = Field.literal(rest);
                    } else if (rest.isEmpty() && i + 1 < args.size() && !args.get(i + 1).text().isEmpty()
                            && args.get(i + 1).text().chars().allMatch(Character::isDigit)) {
                        value = args.get(++i);
                    } else if (!rest.isEmpty()) {
                        options.add(new Opt(c, plus, null));
                        continue;
                    }
                    options.add(new Opt(c, plus, value));
                    break;
                } else {
                    return new Parsed(options, List.of(), "the option " + (plus ? "+" : "-") + Field.literal(String.valueOf(c)).display()
                            + (c == Field.HOLE ? " (computed at run time)" : "") + " is not one shellgate knows for this builtin");
                }
            }
        }
        return new Parsed(options, List.copyOf(args.subList(Math.min(i, args.size()), args.size())), null);
    }
}
