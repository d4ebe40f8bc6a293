package io.shellgate.judge.internal.analysis.model;

/**
 * The work one command line may cost, counted in steps (commands judged, word parts expanded,
 * characters of values copied, parser steps), so that the same line gets the same verdict on a
 * busy machine as on an idle one. A wall-clock limit stays only as a last guard against a cost
 * the count does not see.
 *
 * <p>When either runs out, {@link Exhausted} is thrown: the judge stops where it is and asks.
 */
public final class Budget {

    /** Far above any line a person or an agent writes (a few hundred to a few thousand steps). */
    public static final long MAX_STEPS = 2_000_000;

    private final long maxSteps;
    private final long deadline;
    private long used;

    public Budget(long maxSteps, long deadlineNanos) {
        this.maxSteps = maxSteps;
        this.deadline = deadlineNanos;
    }

    /** Spends {@code steps}; throws when the count or the last-guard clock has run out. */
    public void spend(long steps) {
        long before = used;
        used += steps;
        if (used > maxSteps) {
            throw new Exhausted("judging the line needs more than " + maxSteps
                    + " steps (nested expansions, substitutions or scripts); shellgate stopped and asks", false);
        }
        // reading the clock costs more than a step: look at it about every thousand steps
        if (before >>> 10 != used >>> 10 && System.nanoTime() - deadline > 0) {
            throw new Exhausted("judging the line took longer than the time guard", true);
        }
    }

    /** The steps still available, for a parser that counts its own. */
    public long remaining() {
        return Math.max(0, maxSteps - used);
    }

    public long deadline() {
        return deadline;
    }

    /**
     * Whether the budget has run out, spending one step: for judges that stop themselves
     * (PowerShell, cmd) rather than being stopped.
     */
    public boolean exhausted() {
        try {
            spend(1);
            return false;
        } catch (Exhausted e) {
            return true;
        }
    }

    /** The budget ran out: {@code clock} when the last-guard clock did, not the step count. */
    public static final class Exhausted extends RuntimeException {

        private static final long serialVersionUID = 1L;

        public final boolean clock;

        public Exhausted(String message, boolean clock) {
            super(message, null, false, false);
            this.clock = clock;
        }
    }
}
