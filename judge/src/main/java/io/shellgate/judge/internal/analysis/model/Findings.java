package io.shellgate.judge.internal.analysis.model;

import io.shellgate.judge.CommandInfo;
import io.shellgate.judge.Reason;
import io.shellgate.judge.Span;
import io.shellgate.rules.Tier;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/** What the analysis of one command line found: reasons, commands, and the spans that are data. */
public final class Findings {

    public final List<Reason> reasons = new ArrayList<>();
    public final List<CommandInfo> commands = new ArrayList<>();
    /** Spans the shell treats as data (quoted arguments of data commands, comments, heredocs fed to cat). */
    public final List<Span> dataSpans = new ArrayList<>();
    private final Set<String> seen = new HashSet<>();

    public void add(String rule, Tier tier, String message, Span span) {
        // the same finding on the same span (a function body visited twice) is reported once
        if (seen.add(rule + '\u0000' + tier + '\u0000' + message + '\u0000' + span.start() + ':' + span.end())) {
            reasons.add(new Reason(rule, tier, message, span));
        }
    }

    public int mark() {
        return reasons.size();
    }

    public Tier tierSince(int mark) {
        Tier t = Tier.ALLOW;
        for (int i = mark; i < reasons.size(); i++) {
            t = t.max(reasons.get(i).tier());
        }
        return t;
    }

    public Tier tier() {
        return tierSince(0);
    }

    public boolean hasRule(String rule, Tier tier) {
        for (Reason r : reasons) {
            if (r.rule().equals(rule) && r.tier() == tier) {
                return true;
            }
        }
        return false;
    }
}
