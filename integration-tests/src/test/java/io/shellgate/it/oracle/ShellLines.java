package io.shellgate.it.oracle;

import io.shellgate.judge.Dialect;
import io.shellgate.rules.OptionSpec;
import io.shellgate.rules.Policy;
import io.shellgate.rules.ReadOnlyCommand;
import io.shellgate.rules.Tier;
import io.shellgate.rules.Wrapper;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Predicate;

/**
 * The lines of the policy's other grammars: every option of every transparent wrapper around an
 * everyday command, every builtin of bash and zsh with a plain operand and with each hostile form of
 * {@link Values#BUILTIN_TEXT}, and every
 * variable the policy calls safe to set, set for a program that reads its environment.
 */
final class ShellLines {

    private static final OptionSpec NO_OPTION = new OptionSpec("", OptionSpec.Arity.NONE);

    private final Policy policy;
    private final long seed;
    private final boolean deep;
    private final Set<String> bashBuiltins;
    private final Set<String> zshBuiltins;
    private final List<Candidate> out = new ArrayList<>();

    ShellLines(Policy policy, long seed, boolean deep) {
        this.policy = policy;
        this.seed = seed;
        this.deep = deep;
        this.bashBuiltins = Set.copyOf(policy.programs().builtins().getOrDefault("bash", List.of()));
        this.zshBuiltins = Set.copyOf(policy.programs().builtins().getOrDefault("zsh", List.of()));
    }

    /** Whether {@code name} exists only in zsh (a builtin of zsh, not of bash, and no program): zsh runs its lines. */
    static boolean zshOnly(String name, Set<String> bash, Set<String> zsh) {
        return zsh.contains(name) && !bash.contains(name) && !name.contains(" ");
    }

    /** The lines of the wrappers {@code entries} accepts (by id), then of {@code builtins} and {@code environment}. */
    List<Candidate> generate(Predicate<String> entries) {
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
        return out;
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
                    Random r = Values.random(seed, w.id(), name, o.name(), variant);
                    StringBuilder line = new StringBuilder(name).append(Values.option(o, ReadOnlyCommand.Style.GNU, hostile, false, r));
                    for (int i = 0; i < w.operands(); i++) {
                        line.append(' ').append(Values.pick(r, Values.NUMBERS));
                    }
                    if (w.assignments() && hostile) {
                        line.append(" LC_ALL=C");
                    }
                    line.append(hostile ? " cat a.txt" : " ls -la");
                    out.add(new Candidate(line.toString(), zshOnly(name, bashBuiltins, zshBuiltins) ? Dialect.ZSH : Dialect.BASH, w.id() + " " + o));
                }
            }
        }
    }

    /** Builtins with no read-only entry: most must ask, and the ones the judge follows (eval, source) run what they are given. */
    private void builtins() {
        for (String name : new TreeSet<>(bashBuiltins)) {
            Random r = Values.random(seed, "builtins", name, "", 0);
            out.add(new Candidate(name + " " + Values.text(false, r) + "; ls", Dialect.BASH, "builtin " + name));
            for (String text : Values.BUILTIN_TEXT) {
                out.add(new Candidate(name + " " + text + "; ls", Dialect.BASH, "builtin " + name + " hostile"));
            }
        }
        for (String name : new TreeSet<>(zshBuiltins)) {
            if (!bashBuiltins.contains(name)) {
                for (String text : Values.BUILTIN_TEXT) {
                    out.add(new Candidate(name + " " + text + "; ls", Dialect.ZSH, "builtin " + name + " (zsh) hostile"));
                }
            }
        }
    }

    /** Variables the policy calls safe to set on a command line, set for a program that reads its environment. */
    private void assignments() {
        for (String name : policy.environment().safe()) {
            String var = name.endsWith("*") ? name.substring(0, name.length() - 1) + "ALL" : name;
            for (int variant = 0; variant < 2; variant++) {
                Random r = Values.random(seed, "environment", var, "", variant);
                String value = variant == 1 ? Values.pick(r, Values.CODE) : Values.pick(r, Values.WORDS);
                String program = Values.pick(r, List.of("git log -1", "ls -la", "grep foo a.txt", "sort a.txt"));
                out.add(new Candidate(var + "=" + value + " " + program, Dialect.BASH, "environment " + var));
            }
        }
    }
}
