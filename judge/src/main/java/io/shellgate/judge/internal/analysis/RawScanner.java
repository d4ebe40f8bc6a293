package io.shellgate.judge.internal.analysis;

import com.google.re2j.Matcher;
import io.shellgate.judge.Span;
import io.shellgate.rules.Rule;
import io.shellgate.rules.Tier;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The backstop: every rule's raw pattern runs on the whole raw text, and again with line
 * continuations removed ({@code git re\<newline>set} is {@code git reset} to bash). A hit the
 * structural judge did not already refuse is refused, unless it lies inside data (a quoted
 * argument of echo or grep, a heredoc fed to cat, a comment), where it asks. It is never allowed.
 */
final class RawScanner {

    private RawScanner() {}

    record Hit(Rule rule, Span span) {}

    static List<Hit> scan(CompiledPolicy policy, String text, String dialect) {
        List<Hit> hits = new ArrayList<>();
        String joined = text.replace("\\\n", "");
        int[] map = joined.length() == text.length() ? null : offsets(text);
        // lower-cased for the rules' required words; beyond ASCII every expression runs
        boolean ascii = RequiredText.isAscii(text);
        String lower = ascii ? text.toLowerCase(Locale.ROOT) : null;
        String lowerJoined = ascii && map != null ? joined.toLowerCase(Locale.ROOT) : null;
        for (CompiledPolicy.RawRule raw : policy.rawRules) {
            if (!raw.rule().dialects().isEmpty() && !raw.rule().dialects().contains(dialect)) {
                continue;
            }
            boolean found = false;
            if (!ascii || RequiredText.mayMatch(raw.words(), lower)) {
                Matcher m = raw.pattern().matcher(text);
                while (m.find()) {
                    hits.add(new Hit(raw.rule(), new Span(m.start(), Math.max(m.start(), m.end()))));
                    found = true;
                    if (m.end() == m.start()) {
                        break;
                    }
                }
            }
            if (!found && map != null && (!ascii || RequiredText.mayMatch(raw.words(), lowerJoined))) {
                Matcher j = raw.pattern().matcher(joined);
                while (j.find()) {
                    hits.add(new Hit(raw.rule(), new Span(map[j.start()], map[Math.max(j.start(), j.end() - 1)] + 1)));
                    if (j.end() == j.start()) {
                        break;
                    }
                }
            }
        }
        return hits;
    }

    /** For each index of the text without continuations, the index in the original text. */
    private static int[] offsets(String text) {
        int[] map = new int[text.length() + 1];
        int n = 0;
        for (int i = 0; i < text.length(); i++) {
            if (text.charAt(i) == '\\' && i + 1 < text.length() && text.charAt(i + 1) == '\n') {
                i++;
                continue;
            }
            map[n++] = i;
        }
        map[n] = text.length();
        return map;
    }

    /** Adds the raw hits to the findings: refused, or asked about when they lie inside data. */
    static void apply(Findings findings, List<Hit> hits) {
        for (Hit hit : hits) {
            Rule rule = hit.rule();
            if (findings.hasRule(rule.id(), rule.tier())) {
                continue;
            }
            boolean data = false;
            for (Span d : findings.dataSpans) {
                if (d.contains(hit.span())) {
                    data = true;
                    break;
                }
            }
            if (data) {
                findings.add(rule.id(), Tier.ASK, rule.reason() + " — the text appears inside data (a quoted argument, a heredoc"
                        + " or a comment); review it", hit.span());
            } else {
                findings.add(rule.id(), rule.tier(), Rules.message(rule) + " (found in the raw text of the command line)", hit.span());
            }
        }
    }
}
