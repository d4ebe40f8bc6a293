package io.shellgate.reviewer.internal.export;

import io.shellgate.judge.Judge;
import io.shellgate.judge.JudgeRequest;
import io.shellgate.judge.Verdict;
import io.shellgate.rules.FileFacts;
import java.util.List;

/**
 * How long the judge and the review of the decision being made on this thread took, for the
 * exported record and the metrics. A gate judges, reviews and writes the audit record on one
 * thread, so the times travel with the thread instead of through every signature in between.
 */
public final class DecisionClock {

    private static final ThreadLocal<long[]> TIMES = ThreadLocal.withInitial(() -> new long[] {-1, 0});

    private DecisionClock() {}

    /** The judge, timed: each verdict's judging time is kept for the record this thread writes next. */
    public static Judge timed(Judge judge) {
        return new Judge() {
            @Override
            public Verdict judge(JudgeRequest request) {
                long start = System.nanoTime();
                try {
                    return judge.judge(request);
                } finally {
                    long[] t = TIMES.get();
                    t[0] = System.nanoTime() - start;
                    t[1] = 0;
                }
            }

            @Override
            public List<FileFacts.Fact> facts(JudgeRequest request) {
                return judge.facts(request);
            }
        };
    }

    /** Marks the start of a review on this thread. */
    public static void reviewStarts() {
        TIMES.get()[1] = System.nanoTime();
    }

    /**
     * The judging time in microseconds and the review's time in milliseconds of the decision this
     * thread is recording (-1 where not known), and forgets them.
     */
    static long[] take() {
        long[] t = TIMES.get();
        long judgeMicros = t[0] < 0 ? -1 : t[0] / 1000;
        long reviewMillis = t[1] == 0 ? -1 : (System.nanoTime() - t[1]) / 1_000_000;
        t[0] = -1;
        t[1] = 0;
        return new long[] {judgeMicros, reviewMillis};
    }
}
