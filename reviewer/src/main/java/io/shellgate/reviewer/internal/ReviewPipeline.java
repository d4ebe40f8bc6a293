package io.shellgate.reviewer.internal;

import io.shellgate.judge.Verdict;
import io.shellgate.reviewer.Answer;
import io.shellgate.reviewer.Decision;
import io.shellgate.reviewer.PendingAsk;
import io.shellgate.reviewer.ReviewRequest;
import io.shellgate.reviewer.Reviewer;
import io.shellgate.reviewer.Step;
import io.shellgate.rules.Policy;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

/** The steps of review in order; the first that answers decides. */
public final class ReviewPipeline implements Reviewer {

    private static final Duration PERSON_TIMEOUT = Duration.ofMinutes(5);

    public ReviewPipeline(Policy policy, Map<String, String> env) {}

    @Override
    public Decision review(ReviewRequest r) {
        Verdict v = r.verdict();
        try {
            return switch (v.tier()) {
                case ALLOW -> new Decision(true, Step.JUDGE, "read-only", v);
                case DENY -> new Decision(false, Step.JUDGE, v.primary().message(), v);
                case ASK -> ask(r);
            };
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new Decision(false, Step.TIMEOUT, "review was interrupted; not run", v);
        } catch (RuntimeException e) {
            return new Decision(false, Step.TIMEOUT, "review failed (" + e + "); not run", v);
        }
    }

    private Decision ask(ReviewRequest r) throws InterruptedException {
        if (r.person() != null) {
            PendingAsk pending = new PendingAsk(UUID.randomUUID().toString(), r.request(), r.verdict(), r.origin());
            Optional<Answer> answer = r.person().ask(pending, PERSON_TIMEOUT);
            if (answer.isPresent()) {
                return new Decision(answer.get().runs(), Step.PERSON,
                        answer.get().runs() ? "approved by a person" : "refused by a person", r.verdict());
            }
        }
        return new Decision(false, Step.TIMEOUT, "needed review (" + r.verdict().primary().message()
                + ") and nobody answered", r.verdict());
    }

}
