package io.shellgate.judge.internal.analysis.language;

import java.util.LinkedHashSet;
import java.util.Set;

/** Sets of words a regular expression's match must contain, combined as {@link RequiredText} reads it. */
final class WordSets {

    /** The most strings a set may hold before it stops being useful as a check. */
    static final int MAX_SET = 16;

    private WordSets() {}

    /** Every word of a and of b, or null when there would be too many. */
    static Set<String> union(Set<String> a, Set<String> b) {
        Set<String> out = new LinkedHashSet<>(a);
        out.addAll(b);
        return out.size() > MAX_SET ? null : out;
    }

    /** Every a followed by every b, or null when there would be too many. */
    static Set<String> cross(Set<String> a, Set<String> b) {
        if (a.size() * b.size() > MAX_SET) {
            return null;
        }
        Set<String> out = new LinkedHashSet<>();
        for (String x : a) {
            for (String y : b) {
                out.add(x + y);
            }
        }
        return out;
    }

    /** The more selective of two word sets: the one whose shortest word is longer, then the smaller. */
    static Set<String> better(Set<String> a, Set<String> b) {
        if (b == null || b.isEmpty() || b.contains("")) {
            return a;
        }
        if (a == null) {
            return b;
        }
        int ma = shortest(a);
        int mb = shortest(b);
        return mb > ma || mb == ma && b.size() < a.size() ? b : a;
    }

    static int shortest(Set<String> s) {
        int m = Integer.MAX_VALUE;
        for (String x : s) {
            m = Math.min(m, x.length());
        }
        return m;
    }
}
