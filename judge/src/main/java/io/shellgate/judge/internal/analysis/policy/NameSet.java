package io.shellgate.judge.internal.analysis.policy;

import com.google.re2j.Pattern;
import io.shellgate.judge.internal.syntax.Globs;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/** Names and name globs ({@code python3.*}, {@code LC_*}) from the policy, matched exactly or by RE2. */
public final class NameSet {

    private final Set<String> exact = new HashSet<>();
    private final Pattern globs;
    /** What each glob's names start with (its text before the first special character): a name with none of them matches no glob. */
    private final List<String> starts = new ArrayList<>();

    public NameSet(List<String> names) {
        StringBuilder sb = new StringBuilder();
        for (String n : names) {
            if (n.indexOf('*') < 0 && n.indexOf('?') < 0 && n.indexOf('[') < 0 && n.indexOf('\\') < 0) {
                exact.add(n);
            } else {
                int special = 0;
                while ("*?[\\".indexOf(n.charAt(special)) < 0) {
                    special++;
                }
                starts.add(n.substring(0, special));
                if (!sb.isEmpty()) {
                    sb.append('|');
                }
                // a name has no segments: * and ? take any character
                sb.append("(?:").append(Globs.regex(n, "[\\s\\S]", true)).append(')');
            }
        }
        globs = sb.isEmpty() ? null : Pattern.compile(sb.toString());
    }

    public boolean contains(String name) {
        return exact.contains(name) || (globs != null && startsLikeAGlob(name) && globs.matcher(name).matches());
    }

    private boolean startsLikeAGlob(String name) {
        for (String s : starts) {
            if (name.startsWith(s)) {
                return true;
            }
        }
        return false;
    }
}
