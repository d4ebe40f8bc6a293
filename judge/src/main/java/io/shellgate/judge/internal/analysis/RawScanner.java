package io.shellgate.judge.internal.analysis;

import com.google.re2j.Matcher;
import io.shellgate.judge.Dialect;
import io.shellgate.judge.Span;
import io.shellgate.judge.internal.analysis.language.RequiredText;
import io.shellgate.judge.internal.analysis.model.Findings;
import io.shellgate.judge.internal.analysis.policy.CompiledPolicy;
import io.shellgate.judge.internal.analysis.walk.Rules;
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
        List<Variant> variants = new ArrayList<>();
        variants.add(new Variant(text, null));
        String joined = text.replace("\\\n", "");
        if (joined.length() != text.length()) {
            variants.add(new Variant(joined, offsets(text)));
        }
        if (Dialect.parse(dialect) == null || Dialect.parse(dialect).isPosix()) {
            // quotes and backslashes around a pattern hide it from an expression that expects a
            // blank before it ("trap -- 'rm -rf /' EXIT"): read the text also as quote removal leaves it
            int[] map = new int[text.length() + 1];
            String dequoted = dequote(text, map);
            if (!dequoted.equals(text) && !dequoted.equals(joined)) {
                variants.add(new Variant(dequoted, map));
            }
        }
        // lower-cased for the rules' required words; beyond ASCII every expression runs
        boolean ascii = RequiredText.isAscii(text);
        List<String> lower = new ArrayList<>();
        for (Variant v : variants) {
            lower.add(ascii ? v.text().toLowerCase(Locale.ROOT) : null);
        }
        for (CompiledPolicy.RawRule raw : policy.rawRules) {
            if (!raw.rule().dialects().isEmpty() && !raw.rule().dialects().contains(dialect)) {
                continue;
            }
            for (int k = 0; k < variants.size(); k++) {
                Variant v = variants.get(k);
                if (ascii && !RequiredText.mayMatch(raw.words(), lower.get(k))) {
                    continue;
                }
                boolean found = false;
                Matcher m = raw.pattern().matcher(v.text());
                while (m.find()) {
                    int start = v.map() == null ? m.start() : v.map()[m.start()];
                    int end = v.map() == null ? Math.max(m.start(), m.end()) : v.map()[Math.max(m.start(), m.end() - 1)] + 1;
                    // the blank or separator an expression matches before a command is not part of it:
                    // without it, a hit inside a quoted argument lies inside that argument
                    while (start < end - 1 && " \t\n;&|(){}`!".indexOf(text.charAt(start)) >= 0) {
                        start++;
                    }
                    while (end - 1 > start && " \t\n;&|)".indexOf(text.charAt(end - 1)) >= 0) {
                        end--;
                    }
                    hits.add(new Hit(raw.rule(), new Span(start, Math.max(start, end))));
                    found = true;
                    if (m.end() == m.start()) {
                        break;
                    }
                }
                if (found) {
                    // one reading that shows the pattern is enough
                    break;
                }
            }
        }
        return hits;
    }

    private record Variant(String text, int[] map) {}

    /**
     * The text with the quote characters, backslashes and line continuations taken out, as
     * quote removal leaves the words ({@code r''m}, {@code 'rm -rf /'}, {@code \rm}); {@code map}
     * gets, for each kept character, its index in the text.
     */
    static String dequote(String text, int[] map) {
        StringBuilder sb = new StringBuilder(text.length());
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '\\' && i + 1 < text.length()) {
                i++;
                if (text.charAt(i) == '\n') {
                    continue;
                }
                c = text.charAt(i);
            } else if (c == '\'' || c == '"' || c == '$' && i + 1 < text.length()
                    && (text.charAt(i + 1) == '\'' || text.charAt(i + 1) == '"')) {
                continue;
            }
            map[sb.length()] = i;
            sb.append(c);
        }
        map[sb.length()] = text.length();
        return sb.toString();
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
