package io.shellgate.judge.internal.syntax;

/** Turns a POSIX-family command line into a {@link Script}. Implementations are thread-safe. */
public interface ShellParser {

    /**
     * Parses {@code text}.
     *
     * @param budgetNanos the longest the parse may take
     * @throws ParseBudgetException when the budget runs out
     */
    Script parse(String text, long budgetNanos);

    /** The parse took longer than its budget and was abandoned. */
    final class ParseBudgetException extends RuntimeException {

        private static final long serialVersionUID = 1L;

        public ParseBudgetException(String message) {
            super(message);
        }
    }
}
