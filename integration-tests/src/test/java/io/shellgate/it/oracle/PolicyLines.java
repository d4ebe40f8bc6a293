package io.shellgate.it.oracle;

import io.shellgate.judge.Dialect;
import io.shellgate.rules.OptionSpec;
import io.shellgate.rules.Policy;
import io.shellgate.rules.ReadOnlyCommand;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.function.Predicate;

/**
 * Command lines built from the policy's own grammars: every name of every read-only entry with
 * its options (the program's own options, read from its help, where the entry takes any), and
 * (through {@link ShellLines}) the wrappers, builtins and safe variables. A line is plain, or
 * hostile: its values and operands point at canaries, devices, files to write, or code. Its words
 * come from a random source seeded with the line's own entry, name and option, so a line does not
 * change when others are added or removed.
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
        out.addAll(new ShellLines(policy, seed, deep).generate(entries));
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
                    line(e, name, o, Values.random(seed, e.id(), name, o.name(), 2).nextBoolean(), true);
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
                .sorted(Comparator.comparingInt((OptionSpec o) -> (name + " " + o.name()).hashCode())
                        .thenComparing(OptionSpec::name))
                .limit(PER_PROGRAM).toList();
    }

    private void line(ReadOnlyCommand e, String name, OptionSpec o, boolean hostile, boolean fromHelp) {
        Random r = Values.random(seed, e.id(), name, o.name(), hostile ? 1 : 0);
        String line = e.style() == ReadOnlyCommand.Style.WORDS
                // find and its kind: the paths come first, then the expression
                ? name + " " + Values.file(hostile, r) + Values.option(o, e.style(), hostile, fromHelp, r)
                : name + Values.option(o, e.style(), hostile, fromHelp, r) + operands(e, name, hostile, r);
        out.add(new Candidate(line.strip(), zshOnly(name) ? Dialect.ZSH : Dialect.BASH,
                e.id() + " " + (o.name().isEmpty() ? "(no option)" : o.toString()) + (hostile ? " hostile" : " plain")));
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

    private boolean zshOnly(String name) {
        return ShellLines.zshOnly(name, bashBuiltins, zshBuiltins);
    }
}
