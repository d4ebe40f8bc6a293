package io.shellgate.judge.internal.analysis.programs;

import com.google.re2j.Pattern;
import io.shellgate.judge.internal.analysis.model.Checks;
import io.shellgate.judge.internal.analysis.model.Field;
import io.shellgate.judge.internal.analysis.options.OptionParser;
import io.shellgate.judge.internal.analysis.walk.CheckContext;
import io.shellgate.judge.internal.analysis.walk.Invocation;
import io.shellgate.judge.internal.analysis.walk.ProgramCheck;
import io.shellgate.rules.ReadOnlyCommand;
import io.shellgate.rules.Tier;

/** {@code ss FILTER}: a filter word that names a host or service makes ss query the name servers. */
public final class SsFilterCheck implements ProgramCheck {

    /**
     * A word of an ss filter that names nothing to look up: keywords and operators, socket states,
     * numeric addresses (IPv4, bracketed IPv6, with a prefix length) and ports ({@code :22}, {@code *:443}).
     */
    private static final Pattern SS_WORD = Pattern.compile("(?i)(?:state|exclude|dst|src|dport|sport|dev|fwmark|cgroup|autobound"
            + "|and|or|not|eq|neq|ne|ge|le|gt|lt|[()!<>=&|]+|all|connected|synchronized|bucket|big|established|syn-sent|syn-recv"
            + "|fin-wait-1|fin-wait-2|time-wait|closed|close-wait|last-ack|listening|listen|closing"
            + "|(?:(?:\\d{1,3}(?:\\.\\d{1,3}){0,3}|\\[[0-9a-f:.]*\\]|\\*)(?:/\\d{1,3})?)?(?::(?:\\d{1,5}|\\*))?)");

    @Override
    public void after(CheckContext a, Invocation inv, ReadOnlyCommand entry, OptionParser.Parsed parsed) {
        for (Field f : parsed.operands()) {
            // ss joins its operands into one filter text and reads it in words
            if (!f.isLiteral() || !java.util.Arrays.stream(f.plain().replace('(', ' ').replace(')', ' ').trim().split("\\s+"))
                    .allMatch(w -> SS_WORD.matcher(w).matches())) {
                a.add(Checks.NOT_READ_ONLY, Tier.ASK, "ss looks the filter word " + f.display() + " up as a host or service"
                        + " name (a query to the name servers); only numeric addresses and ports, states and keywords are read-only",
                        inv.span());
            }
        }
    }
}
