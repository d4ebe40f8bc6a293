package io.shellgate.judge.internal.analysis.walk;

/** The commands that run code given to them (shells, interpreters, eval, source), judged above the walk. */
@FunctionalInterface
public interface CommandHandler {

    /** Handles the invocation if {@code program} is one of these commands; returns whether it did. */
    boolean handle(Analyzer a, Invocation inv, String program, ReadOnly.Outcome outcome);
}
