package io.shellgate.judge.internal.analysis.walk;

import io.shellgate.judge.internal.analysis.model.Field;
import io.shellgate.judge.internal.analysis.options.OptionParser;
import io.shellgate.rules.ReadOnlyCommand;
import java.util.List;

/**
 * One program's own grammar, named by a read-only entry's {@code checker} and registered once in
 * {@code BuiltInChecks}. It sees the judgement only through {@link CheckContext}.
 */
public interface ProgramCheck {

    /**
     * Runs instead of the entry's option grammar (find's expression, git's subcommands).
     *
     * @return why the entry does not take the arguments, empty when it does; null to parse the
     *         arguments with the entry's options and run {@link #after} on them
     */
    default List<String> custom(CheckContext c, Invocation inv, ReadOnlyCommand entry, String sub, List<Field> before,
            List<Field> args) {
        return null;
    }

    /** Runs after the entry's option grammar accepted the arguments (a sed script, date's operands). */
    default void after(CheckContext c, Invocation inv, ReadOnlyCommand entry, OptionParser.Parsed parsed) {}
}
