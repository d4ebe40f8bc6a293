package io.shellgate.it.oracle;

import io.shellgate.judge.Dialect;
import io.shellgate.rules.OptionSpec;
import io.shellgate.rules.Policy;
import io.shellgate.rules.ReadOnlyCommand;
import io.shellgate.rules.Tier;
import io.shellgate.rules.Wrapper;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.function.Predicate;

/**
 * Command lines built from the policy's own grammars: every name of every read-only entry with
 * each of its options (the program's own options, read from its help, where the entry takes any),
 * every option of every transparent wrapper, every builtin, every safe variable. Each
 * (name, option) gets two lines: a plain one and a hostile one whose values and operands point at
 * canaries, devices, files to write, or code. A line's words come from a random source seeded with
 * the line's own name and option, so a line does not change when others are added or removed.
 */
final class PolicyLines {

    private static final List<OptionSpec> GENERIC = List.of(new OptionSpec("-a", OptionSpec.Arity.NONE),
            new OptionSpec("-l", OptionSpec.Arity.NONE), new OptionSpec("-x", OptionSpec.Arity.NONE),
            new OptionSpec("-p", OptionSpec.Arity.NONE), new OptionSpec("--help", OptionSpec.Arity.NONE));
    /** Options taken from one program's help at most: a bound on the lines one program adds. */
    static final int PER_PROGRAM = 6;
    private static final OptionSpec NO_OPTION = new OptionSpec("", OptionSpec.Arity.NONE);

    private final Policy policy;
    private final HelpOptions help;
    private final long seed;
    private final boolean deep;
    private final Set<String> bashBuiltins;
    private final Set<String> zshBuiltins;
    private final List<Candidate> out = new ArrayList<>();

    /** Lines for {@code policy}, with words drawn with {@code seed}; {@code deep} doubles the lines per option. */
    PolicyLines(Policy policy, HelpOptions help, long seed, boolean deep) {
        this.policy = policy;
        this.help = help;
        this.seed = seed;
        this.deep = deep;
        this.bashBuiltins = Set.copyOf(policy.programs().builtins().getOrDefault("bash", List.of()));
        this.zshBuiltins = Set.copyOf(policy.programs().builtins().getOrDefault("zsh", List.of()));
    }

    /** The lines of the entries {@code entries} accepts (by id), in policy order. */
    List<Candidate> generate(Predicate<String> entries) {
        List<String> programs = new ArrayList<>();
        for (ReadOnlyCommand e : policy.readOnly()) {
            if (entries.test(e.id()) && e.options().stream().anyMatch(o -> o.arity() == OptionSpec.Arity.ANY)) {
                e.commands().stream().filter(n -> !zshOnly(n)).forEach(programs::add);
            }
        }
        help.prefetch(programs, bashBuiltins);
        for (ReadOnlyCommand e : policy.readOnly()) {
            if (entries.test(e.id())) {
                readOnly(e);
            }
        }
        for (Wrapper w : policy.wrappers()) {
            if (entries.test(w.id()) && w.tier() == Tier.ALLOW) {
                wrapper(w);
            }
        }
        if (entries.test("builtins")) {
            builtins();
        }
        if (entries.test("environment")) {
            assignments();
        }
        return List.copyOf(new LinkedHashSet<>(out));
    }

    /**
     * Each name of the entry gets a plain and a hostile line without options. Each option of the
     * policy gets one line, plain or hostile, with one of the names (the names of one entry share its
     * option list, so each pairing is a sample of the same grammar); with {@code deep}, a plain line
     * with one name and a hostile line with another. Each option a program's help lists (for an
     * entry that allows any) gets one line, plain or hostile, for a sample of {@link #PER_PROGRAM}.
     */
    private void readOnly(ReadOnlyCommand e) {
        List<String> names = e.commands();
        boolean any = e.options().stream().anyMatch(o -> o.arity() == OptionSpec.Arity.ANY);
        for (String name : names) {
            line(e, name, NO_OPTION, false, false);
            line(e, name, NO_OPTION, true, false);
            if (any) {
                Dialect dialect = zshOnly(name) ? Dialect.ZSH : Dialect.BASH;
                List<OptionSpec> known = dialect == Dialect.ZSH ? List.of() : help.of(name, bashBuiltins.contains(name));
                for (OptionSpec o : sample(known.isEmpty() ? GENERIC : known, name)) {
                    line(e, name, o, random(e.id(), name, o.name(), 2).nextBoolean(), true);
                }
            }
        }
        List<OptionSpec> listed = e.options().stream().filter(o -> o.arity() != OptionSpec.Arity.ANY).toList();
        if (names.size() > 1 && !listed.isEmpty()) {
            // every program of a shared list gets one of its options too (mvn -v is not java -v)
            for (String name : names) {
                OptionSpec o = listed.get(Math.floorMod(name.hashCode(), listed.size()));
                line(e, name, o, Math.floorMod((name + o.name()).hashCode(), 2) == 1, false);
            }
        }
        for (OptionSpec o : listed) {
            int first = Math.floorMod(o.name().hashCode(), names.size());
            boolean hostile = Math.floorMod((e.id() + o.name()).hashCode(), 2) == 1;
            line(e, names.get(first), o, !deep && hostile, false);
            if (deep) {
                line(e, names.get((first + 1) % names.size()), o, true, false);
            }
        }
    }

    /** At most {@link #PER_PROGRAM} of a program's options, a sample that stays the same as long as the options do. */
    private List<OptionSpec> sample(List<OptionSpec> options, String name) {
        return options.stream()
                .sorted(java.util.Comparator.comparingInt((OptionSpec o) -> (name + " " + o.name()).hashCode())
                        .thenComparing(OptionSpec::name))
                .limit(PER_PROGRAM).toList();
    }

    private void line(ReadOnlyCommand e, String name, OptionSpec o, boolean hostile, boolean fromHelp) {
        Random r = random(e.id(), name, o.name(), hostile ? 1 : 0);
        String line = e.style() == ReadOnlyCommand.Style.WORDS
                // find and its kind: the paths come first, then the expression
                ? name + " " + Values.file(hostile, r) + option(o, e.style(), hostile, fromHelp, r)
                : name + option(o, e.style(), hostile, fromHelp, r) + operands(e, name, hostile, r);
        out.add(new Candidate(line.strip(), zshOnly(name) ? Dialect.ZSH : Dialect.BASH,
                e.id() + " " + (o.name().isEmpty() ? "(no option)" : o.toString()) + (hostile ? " hostile" : " plain")));
    }

    private String option(OptionSpec o, ReadOnlyCommand.Style style, boolean hostile, boolean fromHelp, Random r) {
        if (o.name().isEmpty()) {
            return "";
        }
        String v = Values.value(hostile, r);
        return " " + switch (o.arity()) {
            // an option read from help may take a value: the hostile line gives it one as the next word
            case NONE -> fromHelp && hostile ? o.name() + " " + v : o.name();
            case NUMERIC -> "-" + Values.pick(r, Values.NUMBERS);
            case OPTIONAL -> hostile || r.nextBoolean() ? o.name() + (o.isShort() ? "" : "=") + v : o.name();
            case REQUIRED -> {
                if (o.isLong()) {
                    yield r.nextBoolean() ? o.name() + "=" + v : o.name() + " " + v;
                }
                yield o.isShort() && style != ReadOnlyCommand.Style.WORDS && r.nextBoolean() ? o.name() + v : o.name() + " " + v;
            }
            case ANY -> o.name();
        };
    }

    private String operands(ReadOnlyCommand e, String name, boolean hostile, Random r) {
        int max = e.maxOperands() < 0 ? 2 : Math.min(e.maxOperands(), 2);
        int count = Math.min(max, hostile ? 1 + r.nextInt(2) : 1);
        String checker = e.checker().isEmpty() ? name.split(" ")[0] : e.checker();
        StringBuilder sb = new StringBuilder();
        switch (e.operands()) {
            case NONE -> { }
            case TEXT -> {
                String program = Values.program(checker, hostile, r);
                sb.append(' ').append(program != null ? program : Values.text(hostile, r));
                for (int i = 1; i < count; i++) {
                    sb.append(' ').append(Values.text(hostile, r));
                }
            }
            case FILES, PATTERN_FILES -> {
                String command = Values.program(checker, hostile, r);
                if (command != null && e.operands() == ReadOnlyCommand.Operands.FILES) {
                    return sb.append(' ').append(command).toString(); // xargs: its operands are a command
                }
                if (e.operands() == ReadOnlyCommand.Operands.PATTERN_FILES) {
                    String program = Values.program(checker, hostile, r);
                    sb.append(' ').append(program != null ? program : Values.pick(r, Values.WORDS));
                }
                for (int i = 0; i < count; i++) {
                    // the hostile line's first file is ordinary, so a canary second is not hidden by an error
                    sb.append(' ').append(Values.file(hostile && (i > 0 || count == 1), r));
                }
            }
        }
        return sb.toString();
    }

    /** Each wrapper name runs an everyday command plainly and with a hostile value of each of its options. */
    private void wrapper(Wrapper w) {
        List<OptionSpec> options = new ArrayList<>();
        options.add(NO_OPTION);
        options.addAll(w.options().stream().filter(o -> o.arity() != OptionSpec.Arity.ANY).toList());
        for (String name : w.names()) {
            for (OptionSpec o : options) {
                for (int variant = 0; variant < 2; variant++) {
                    boolean hostile = variant == 1;
                    if (!deep && !o.name().isEmpty() && hostile != (Math.floorMod((name + o.name()).hashCode(), 2) == 1)) {
                        continue;
                    }
                    Random r = random(w.id(), name, o.name(), variant);
                    StringBuilder line = new StringBuilder(name).append(option(o, ReadOnlyCommand.Style.GNU, hostile, false, r));
                    for (int i = 0; i < w.operands(); i++) {
                        line.append(' ').append(Values.pick(r, Values.NUMBERS));
                    }
                    if (w.assignments() && hostile) {
                        line.append(" LC_ALL=C");
                    }
                    line.append(hostile ? " cat a.txt" : " ls -la");
                    out.add(new Candidate(line.toString(), zshOnly(name) ? Dialect.ZSH : Dialect.BASH, w.id() + " " + o));
                }
            }
        }
    }

    /** Builtins with no read-only entry: most must ask, and the ones the judge follows (eval, source) run what they are given. */
    private void builtins() {
        for (String name : new java.util.TreeSet<>(bashBuiltins)) {
            for (int variant = 0; variant < 2; variant++) {
                Random r = random("builtins", name, "", variant);
                out.add(new Candidate(name + " " + Values.text(variant == 1, r) + "; ls", Dialect.BASH, "builtin " + name));
            }
        }
        for (String name : new java.util.TreeSet<>(zshBuiltins)) {
            if (!bashBuiltins.contains(name)) {
                Random r = random("builtins", name, "zsh", 1);
                out.add(new Candidate(name + " " + Values.text(true, r) + "; ls", Dialect.ZSH, "builtin " + name + " (zsh)"));
            }
        }
    }

    /** Variables the policy calls safe to set on a command line, set for a program that reads its environment. */
    private void assignments() {
        for (String name : policy.environment().safe()) {
            String var = name.endsWith("*") ? name.substring(0, name.length() - 1) + "ALL" : name;
            for (int variant = 0; variant < 2; variant++) {
                Random r = random("environment", var, "", variant);
                String value = variant == 1 ? Values.pick(r, Values.CODE) : Values.pick(r, Values.WORDS);
                String program = Values.pick(r, List.of("git log -1", "ls -la", "grep foo a.txt", "sort a.txt"));
                out.add(new Candidate(var + "=" + value + " " + program, Dialect.BASH, "environment " + var));
            }
        }
    }

    private boolean zshOnly(String name) {
        return zshBuiltins.contains(name) && !bashBuiltins.contains(name) && !name.contains(" ");
    }

    private Random random(String id, String name, String option, int variant) {
        return new Random(seed * 1_000_003L + (id + "\u0000" + name + "\u0000" + option + "\u0000" + variant).hashCode());
    }
}
