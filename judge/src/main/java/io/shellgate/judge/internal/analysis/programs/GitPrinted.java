package io.shellgate.judge.internal.analysis.programs;

import io.shellgate.judge.internal.analysis.host.GitRepository;
import io.shellgate.judge.internal.analysis.host.GitSettings;
import io.shellgate.judge.internal.analysis.model.Checks;
import io.shellgate.judge.internal.analysis.model.Field;
import io.shellgate.judge.internal.analysis.options.OptionParser;
import io.shellgate.judge.internal.analysis.walk.CheckContext;
import io.shellgate.judge.internal.analysis.walk.Invocation;
import io.shellgate.rules.Tier;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;

/**
 * What read-only git forms print beyond the repository's history: the remote URLs of
 * {@code git remote -v} and {@code get-url}, the values of {@code git config --get}, decided with
 * the settings git reports (a URL with a password or token asks); and the files of a
 * {@code git diff} that compares paths instead of the repository ({@code --no-index}, or two paths
 * outside the work tree, or outside any repository), every file under a folder included.
 */
final class GitPrinted {

    /** Options after which git diff prints names or counts only, not the files' contents. */
    private static final List<String> NAMES_ONLY = List.of("--name-only", "--name-status", "--stat", "--numstat",
            "--shortstat", "--dirstat", "--dirstat-by-file", "--quiet", "-s", "--no-patch");
    private static final List<String> PATCH = List.of("-p", "-u", "--patch", "-U", "--unified", "-W", "--function-context",
            "--patch-with-raw", "--patch-with-stat", "--word-diff", "--color-words", "--binary");
    private static final Set<String> URL_KEYS = Set.of("url", "pushurl", "proxy");

    private GitPrinted() {}

    /** Why this form would print a credential, or null. */
    static String credential(String sub, OptionParser.Parsed parsed, GitRepository repo) {
        List<String> ops = parsed.operands().stream().map(Field::plain).toList();
        if (sub.equals("remote") && (ops.isEmpty() && parsed.hasAny(List.of("-v", "--verbose")) || !ops.isEmpty())) {
            for (GitRepository.Setting s : repo.settings()) {
                String k = GitRepository.normal(s.key());
                String printed = k.startsWith("remote.") && (k.endsWith(".url") || k.endsWith(".pushurl")) ? s.value()
                        // a URL starting with an insteadOf value is printed with the section's base instead
                        : k.startsWith("url.") && (k.endsWith(".insteadof") || k.endsWith(".pushinsteadof")) ? s.subsection()
                        : null;
                if (printed != null && GitSettings.holdsCredential(printed)) {
                    return "git remote would print a URL with credentials from " + s.key() + " (" + s.where() + ")";
                }
            }
            return null;
        }
        if (!sub.equals("config")) {
            return null;
        }
        List<String> keys = parsed.has("--get") || parsed.has("--get-all") ? ops
                : !ops.isEmpty() && ops.getFirst().equals("get") ? ops.subList(1, ops.size()) : List.of();
        if (keys.isEmpty()) {
            return null;
        }
        String key = keys.getFirst();
        String last = key.substring(key.lastIndexOf('.') + 1).toLowerCase(java.util.Locale.ROOT);
        if (parsed.hasAny(List.of("-f", "--file", "--blob"))) {
            return URL_KEYS.contains(last) ? "git config would print " + key + " from a file shellgate does not read, and a"
                    + " URL there may hold credentials" : null;
        }
        List<String> values = repo.values(key);
        for (String value : values) {
            if (GitSettings.holdsCredential(value)) {
                return "git config would print " + key + ", whose value holds credentials";
            }
        }
        // a URL key is allowed only for a value git reports now and shows to hold no credentials: for one
        // set nowhere the allow would rest on the key staying unset until git runs, which an edit can change.
        // remote.NAME.url keeps its allow when unset: it is the everyday question git remote get-url also answers
        String lower = key.toLowerCase(java.util.Locale.ROOT);
        boolean everyday = lower.startsWith("remote.") && last.equals("url");
        if (values.isEmpty() && URL_KEYS.contains(last) && !everyday) {
            return "git config would print " + key + ", a URL that may hold credentials, and git reports no value for it"
                    + " now to check";
        }
        return null;
    }

    /**
     * Checks what a {@code git diff} that compares paths reads: git's own rule is {@code --no-index},
     * or no repository, or exactly two paths after the options of which one is outside the work tree.
     */
    static void noIndex(CheckContext a, Invocation inv, List<Field> args, OptionParser.Parsed parsed,
            GitRepository repo, Path where) {
        boolean explicit = parsed.has("--no-index");
        if (!explicit && repo.found()) {
            int first = 0;
            while (first < args.size() && args.get(first).plain().startsWith("-") && !args.get(first).plain().equals("--")) {
                first++;
            }
            // git skips one "--" after the options: git diff -- A B compares the two paths too
            if (first < args.size() && args.get(first).plain().equals("--")) {
                first++;
            }
            List<Field> rest = args.subList(first, args.size());
            if (rest.size() != 2) {
                return;
            }
            Path real = a.host().realPath(where);
            if (repo.topLevel() != null && inside(rest.get(0), where, real, repo.topLevel())
                    && inside(rest.get(1), where, real, repo.topLevel())) {
                return;
            }
        }
        boolean contents = !parsed.hasAny(NAMES_ONLY) || parsed.hasAny(PATCH);
        for (Field f : parsed.operands()) {
            if (!f.isLiteral()) {
                a.add(Checks.DYNAMIC_ARGUMENT, Tier.ASK, "git diff compares the paths " + f.display() + " is only known at run"
                        + " time", inv.span());
                return;
            }
            if (f.plain().equals("-")) {
                continue;
            }
            Path p = where.resolve(f.plain()).normalize();
            if (a.host().realPath(p) == null) {
                a.add(Checks.SENSITIVE_PATH, Tier.ASK, "git diff compares files outside the repository, and " + p
                        + " does not exist now, so what it will read cannot be checked", inv.span());
                return;
            }
            if (contents && a.host().isDirectory(p)) {
                if (a.checkRecursive(Field.literal(p.toString()), inv.scope, inv.span())) {
                    return;
                }
            } else if (a.checkRead(Field.literal(p.toString()), inv.scope, inv.span(), "git diff reads")) {
                return;
            }
        }
    }

    /** Whether git sees the path as inside the work tree (lexically, after its own prefix). */
    private static boolean inside(Field f, Path where, Path real, Path top) {
        if (!f.isLiteral()) {
            return false;
        }
        Path p = where.resolve(f.plain()).normalize();
        return p.startsWith(top) || real != null && real.resolve(f.plain()).normalize().startsWith(top);
    }
}
