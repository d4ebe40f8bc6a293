package io.shellgate.judge;

import io.shellgate.rules.Tier;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * The judge's answer for a command line: the strictest tier of all its parts, every reason, and
 * the simple commands found.
 */
public record Verdict(Tier tier, List<Reason> reasons, List<CommandInfo> commands) {

    public Verdict {
        reasons = List.copyOf(reasons);
        commands = List.copyOf(commands);
    }

    /** The reasons at the verdict's own tier, the ones that decided it. */
    public List<Reason> deciding() {
        List<Reason> out = new ArrayList<>(reasons.size());
        for (Reason r : reasons) {
            if (r.tier() == tier) {
                out.add(r);
            }
        }
        return Collections.unmodifiableList(out);
    }

    /** The first reason at the verdict's tier: the one to show in a one-line refusal. */
    public Reason primary() {
        for (Reason r : reasons) {
            if (r.tier() == tier) {
                return r;
            }
        }
        return new Reason("empty", tier, "the command line runs nothing", Span.NONE);
    }

    /** Reasons ordered strictest first, keeping their order within a tier. */
    public List<Reason> bySeverity() {
        Tier[] tiers = Tier.values();
        List<Reason> out = new ArrayList<>(reasons.size());
        for (int t = tiers.length - 1; t >= 0; t--) {
            for (Reason r : reasons) {
                if (r.tier() == tiers[t]) {
                    out.add(r);
                }
            }
        }
        return Collections.unmodifiableList(out);
    }
}
