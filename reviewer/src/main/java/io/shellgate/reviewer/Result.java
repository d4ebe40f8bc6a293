package io.shellgate.reviewer;

import io.shellgate.judge.Span;
import io.shellgate.judge.Verdict;
import io.shellgate.reviewer.model.Step;
import io.shellgate.rules.Tier;
import java.util.List;

/**
 * What the gate decided about one command line, for every door to render its own way: it runs,
 * it is refused (with the rule, a sentence, the part of the line it is about, and the step that
 * decided), or the policy in effect is broken. Each carries a warning when the decision could not
 * be written to the audit log.
 */
public sealed interface Result {

    /** A line to show with the decision (the audit log could not be written), or null. */
    String warning();

    /**
     * The command may run.
     *
     * @param verdict the judge's verdict
     * @param step what let it run (the judge, a remembered approval, the LLM, a person)
     * @param message a sentence saying so
     */
    record Runs(Verdict verdict, Step step, String message, String warning) implements Result {}

    /**
     * The command must not run.
     *
     * @param tier how a client must treat it: the verdict's tier, or deny when the gate itself refuses
     *     (no audit log where one is required); never allow
     * @param rule the rule or check that refused it ({@code policy-error}, {@code judge-error},
     *     {@code audit-required} and {@code audit-unavailable} come from the gate itself)
     * @param message why, for the person or agent whose command it is
     * @param span the part of the line it is about (the whole line when the gate refused it)
     * @param step the step that decided
     * @param verdict the judge's verdict; null when there is none (the judge failed)
     */
    record Refused(Tier tier, String rule, String message, Span span, Step step, Verdict verdict, String warning)
            implements Result {

        public Refused {
            if (tier == Tier.ALLOW) {
                throw new IllegalArgumentException("a refusal is never an allow");
            }
        }

        /** The one line every door shows for a refusal: {@code shellgate: refused (rule): message}. */
        public String line() {
            return "shellgate: refused (" + rule + "): " + message;
        }
    }

    /**
     * A policy file in effect cannot be used: nothing is judged, nothing runs.
     *
     * @param problems each problem, with its file:line:column
     */
    record PolicyBroken(List<String> problems, String warning) implements Result {

        public PolicyBroken {
            problems = List.copyOf(problems);
        }

        /** The refusal line: {@code shellgate: refused (policy-error): the policy cannot be used: …}. */
        public String line() {
            return "shellgate: refused (policy-error): the policy cannot be used: " + String.join("; ", problems);
        }
    }
}
