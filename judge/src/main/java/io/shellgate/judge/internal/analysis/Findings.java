package io.shellgate.judge.internal.analysis;

import io.shellgate.judge.CommandInfo;
import io.shellgate.judge.Reason;
import io.shellgate.judge.Span;
import io.shellgate.rules.Tier;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/** What the analysis of one command line found: reasons, commands, and the spans that are data. */
final class Findings {

    final List<Reason> reasons = new ArrayList<>();
    final List<CommandInfo> commands = new ArrayList<>();
    /** Spans the shell treats as data (quoted arguments of data commands, comments, heredocs fed to cat). */
    final List<Span> dataSpans = new ArrayList<>();
    private final Set<String> seen = new HashSet<>();

    void add(String rule, Tier tier, String message, Span span) {
        // the same finding on the same span (a function body visited twice) is reported once
        if (seen.add(rule + '\u0000' + tier + '\u0000' + message + '\u0000' + span.start() + ':' + span.end())) {
            reasons.add(new Reason(rule, tier, message, span));
        }
    }

    int mark() {
        return reasons.size();
    }

    Tier tierSince(int mark) {
        Tier t = Tier.ALLOW;
        for (int i = mark; i < reasons.size(); i++) {
            t = t.max(reasons.get(i).tier());
        }
        return t;
    }

    Tier tier() {
        return tierSince(0);
    }

    boolean hasRule(String rule, Tier tier) {
        for (Reason r : reasons) {
            if (r.rule().equals(rule) && r.tier() == tier) {
                return true;
            }
        }
        return false;
    }
}
