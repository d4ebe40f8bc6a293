package io.shellgate.it.oracle;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * The list of lines whose findings are known today ({@code oracle-exceptions.tsv}): dialect, line
 * (newlines as ⏎) and reason, tab-separated. The oracle fails on a finding that is not listed, and
 * on a listed line that is now clean, so the list only shrinks as the judge closes holes.
 *
 * <p>A listed line is not called clean when this run cannot tell: it ran into its time limit, a
 * program it names is not installed on this machine, or the judge ran out of its time budget.
 */
final class Exceptions {

    /** The outcome of comparing a run with the list. */
    record Check(List<String> unexplained, List<String> stale, List<String> undecided) {}

    private final String header;
    private final Map<String, String> entries = new LinkedHashMap<>();
    private final Set<String> builtins;
    private final String scope;

    /** The list in {@code text}; {@code builtins} are names that are installed wherever a shell is. */
    Exceptions(String text, Set<String> builtins) {
        this(text, builtins, "");
    }

    /**
     * The entries of one hostile fixture ({@code scope}, the first column reads {@code scope/bash}),
     * or with an empty scope those of the plain world (the first column is the dialect alone).
     */
    Exceptions(String text, Set<String> builtins, String scope) {
        this.builtins = builtins;
        this.scope = scope;
        StringBuilder h = new StringBuilder();
        for (String line : text.split("\n")) {
            if (line.startsWith("#")) {
                h.append(line).append('\n');
            } else if (!line.isBlank()) {
                String[] cols = line.split("\t", 3);
                if (cols.length != 3 || cols[2].isBlank()) {
                    throw new IllegalArgumentException("an exception line needs dialect, line and reason: " + line);
                }
                int slash = cols[0].indexOf('/');
                if ((slash < 0 ? "" : cols[0].substring(0, slash)).equals(scope)) {
                    entries.put(cols[0].substring(slash + 1) + "\t" + cols[1], cols[2].strip());
                }
            }
        }
        header = h.toString();
    }

    static String key(Candidate c) {
        return c.dialect().id() + "\t" + c.display();
    }

    Check check(Oracle.Run run, Report report) {
        Map<String, Oracle.Result> ran = new LinkedHashMap<>();
        run.results().forEach(r -> ran.put(key(r.candidate()), r));
        Map<String, Oracle.Judged> judged = new LinkedHashMap<>();
        run.judged().forEach(j -> judged.put(key(j.candidate()), j));
        List<String> unexplained = new ArrayList<>();
        for (Oracle.Result r : run.withFindings()) {
            if (!entries.containsKey(key(r.candidate()))) {
                unexplained.add(key(r.candidate()) + "   [" + r.candidate().origin() + "] "
                        + r.findings().stream().map(f -> f.kind().id() + ": " + report.detail(f)).collect(Collectors.joining("; ")));
            }
        }
        List<String> stale = new ArrayList<>();
        List<String> undecided = new ArrayList<>();
        for (String k : entries.keySet()) {
            Oracle.Result r = ran.get(k);
            Oracle.Judged j = judged.get(k);
            if (r != null && !r.findings().isEmpty()) {
                continue;
            }
            if (r != null && r.timedOut() || j != null && j.undecided() || j == null && !installed(k)) {
                undecided.add(k);
            } else {
                stale.add(k + (r != null ? "   (ran without findings)" : j != null ? "   (the judge no longer allows it)"
                        : "   (no longer generated)"));
            }
        }
        return new Check(unexplained, stale, undecided);
    }

    /** The list with this run's findings: listed reasons kept, a first draft for new lines (reviewed before it is checked in). */
    String rewrite(Oracle.Run run, Report report) {
        Map<String, String> out = new TreeMap<>();
        for (Oracle.Result r : run.withFindings()) {
            String k = key(r.candidate());
            out.put(k, entries.getOrDefault(k, "open hole: " + r.findings().stream()
                    .map(f -> f.kind().id() + " " + shorten(report.detail(f))).distinct().limit(3)
                    .collect(Collectors.joining("; "))));
        }
        Check check = check(run, report);
        for (String k : check.undecided()) {
            out.putIfAbsent(k, entries.get(k));
        }
        StringBuilder sb = new StringBuilder(header);
        out.forEach((k, reason) -> sb.append(scope.isEmpty() ? "" : scope + "/").append(k).append('\t').append(reason)
                .append('\n'));
        return sb.toString();
    }

    private static String shorten(String detail) {
        return detail.length() <= 100 ? detail : detail.substring(0, 97) + "...";
    }

    /** Whether the program of a listed line is on this machine (a line of an absent program cannot be judged stale). */
    private boolean installed(String key) {
        String program = Report.program(key.substring(key.indexOf('\t') + 1)).split(" ")[0];
        return builtins.contains(program) || JudgedPrograms.lookUp(program) != null
                || !program.chars().allMatch(c -> Character.isLetterOrDigit(c) || c == '-' || c == '_' || c == '.');
    }
}
