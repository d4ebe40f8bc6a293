package io.shellgate.rules;

import java.util.List;

/**
 * A command that runs another command given as its arguments ({@code timeout 60 CMD},
 * {@code nice -n 5 CMD}, {@code sudo CMD}); the judge strips it and judges what it runs.
 *
 * @param tier {@code allow} for a transparent wrapper, {@code ask} for one that always needs
 *     review (such as {@code sudo}); the inner command is judged either way
 * @param options the wrapper's own options; an unknown option means the wrapper cannot be
 *     stripped, and the line is asked about
 * @param operands how many positional arguments the wrapper takes before the command
 *     ({@code timeout}'s duration is one)
 * @param assignments whether {@code NAME=value} words may come before the command ({@code env})
 */
public record Wrapper(
        String id,
        List<String> names,
        Tier tier,
        String reason,
        List<OptionSpec> options,
        int operands,
        boolean assignments,
        Examples examples,
        SourceLocation location,
        Layer layer) implements RuleInfo {

    public Wrapper {
        names = List.copyOf(names);
        options = List.copyOf(options);
    }
}
