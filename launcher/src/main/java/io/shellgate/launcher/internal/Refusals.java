package io.shellgate.launcher.internal;

import io.shellgate.judge.Reason;
import io.shellgate.judge.Verdict;
import io.shellgate.reviewer.Decision;
import io.shellgate.reviewer.Step;
import io.shellgate.rules.Tier;

/** The one line a refused command gets on stderr, the same from every entry point. */
public final class Refusals {

    private Refusals() {}

    /** {@code shellgate: refused (rule): reason}, saying for an ask who refused it. */
    public static String line(Verdict v, Decision d) {
        Reason r = v.primary();
        if (v.tier() == Tier.ASK && d.step() != Step.JUDGE) {
            return "shellgate: refused (" + r.rule() + "): " + d.message();
        }
        return "shellgate: refused (" + r.rule() + "): " + r.message();
    }
}
