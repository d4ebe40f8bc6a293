package io.shellgate.judge.internal.analysis.walk;

/**
 * A check of the shell's own builtins ({@code set}, {@code export}, {@code trap}), named by a
 * read-only entry's {@code checker}: unlike a {@link ProgramCheck} it changes the state of the
 * walk (variables, options), so it gets the analyzer itself.
 */
@FunctionalInterface
public interface BuiltinCheck {

    /** Judges the invocation once the entry's option grammar accepted it. */
    void check(Analyzer a, Invocation inv);
}
