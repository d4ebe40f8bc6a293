package io.shellgate.judge.internal.syntax;

/** Turns a POSIX-family command line into a {@link Script}. Implementations are thread-safe. */
public interface ShellParser {

    /**
     * Parses {@code text} within {@code limits}.
     *
     * @throws ParseBudgetException when a limit runs out
     */
    Script parse(String text, Limits limits);

    /** Parses {@code text} with no step limit, taking at most {@code budgetNanos}. */
    default Script parse(String text, long budgetNanos) {
        return parse(text, new Limits(System.nanoTime() + budgetNanos, Long.MAX_VALUE));
    }

    /**
     * What a parse may cost.
     *
     * @param deadlineNanos the {@link System#nanoTime()} past which the parse is abandoned (a last guard)
     * @param maxSteps the parser steps it may take (tree-sitter's own operation count, in hundreds),
     *     which do not depend on how busy the machine is
     */
    record Limits(long deadlineNanos, long maxSteps) {}

    /** The parse took longer than its budget and was abandoned. */
    final class ParseBudgetException extends RuntimeException {

        private static final long serialVersionUID = 1L;

        public ParseBudgetException(String message) {
            super(message);
        }
    }
}
