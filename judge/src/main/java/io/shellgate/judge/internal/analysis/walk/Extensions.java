package io.shellgate.judge.internal.analysis.walk;

import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * What the walk calls that is defined above it: the checks a read-only entry can name, the commands
 * that run code, the judge of other dialects. {@code BuiltInChecks} holds the one set there is.
 *
 * @param programs the program grammars by checker name
 * @param builtins the checks of the shell's builtins by checker name
 */
public record Extensions(Map<String, ProgramCheck> programs, Map<String, BuiltinCheck> builtins, CommandHandler commands,
        DialectJudge dialects) {

    public Extensions {
        programs = Map.copyOf(programs);
        builtins = Map.copyOf(builtins);
        Set<String> both = new TreeSet<>(programs.keySet());
        both.retainAll(builtins.keySet());
        if (!both.isEmpty()) {
            throw new IllegalArgumentException("checkers registered twice: " + both);
        }
    }

    /** Every name a read-only entry's {@code checker} may give. */
    public Set<String> checkerNames() {
        Set<String> names = new TreeSet<>(programs.keySet());
        names.addAll(builtins.keySet());
        return Set.copyOf(names);
    }
}
