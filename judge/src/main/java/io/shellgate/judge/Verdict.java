package io.shellgate.judge;

import io.shellgate.rules.Tier;
import java.util.Comparator;
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
        return reasons.stream().filter(r -> r.tier() == tier).toList();
    }

    /** The first reason at the verdict's tier: the one to show in a one-line refusal. */
    public Reason primary() {
        return reasons.stream()
                .filter(r -> r.tier() == tier)
                .findFirst()
                .orElse(new Reason("empty", tier, "the command line runs nothing", Span.NONE));
    }

    /** Reasons ordered strictest first, keeping their order within a tier. */
    public List<Reason> bySeverity() {
        return reasons.stream().sorted(Comparator.comparing(Reason::tier).reversed()).toList();
    }
}
