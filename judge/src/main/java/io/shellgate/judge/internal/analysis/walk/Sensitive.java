package io.shellgate.judge.internal.analysis.walk;

import io.shellgate.judge.Span;
import io.shellgate.judge.internal.analysis.host.TreeScan;
import io.shellgate.judge.internal.analysis.model.Checks;
import io.shellgate.judge.internal.analysis.model.Field;
import io.shellgate.judge.internal.analysis.model.Scope;
import io.shellgate.judge.internal.analysis.model.ShellPaths;
import io.shellgate.judge.internal.analysis.policy.PathSet;
import io.shellgate.rules.Tier;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Checks paths a command reads against the policy's sensitive set: after {@code ~}, variables,
 * the working directory, file name patterns and symbolic links are resolved as the command would
 * see them.
 */
public final class Sensitive {

    private static final int GLOB_LIMIT = 2000;

    private Sensitive() {}

    /**
     * Asks when {@code operand} names a sensitive path, or cannot be checked. Returns whether it did.
     *
     * @param verb what the command does with it, for the message ({@code reads})
     */
    public static boolean checkRead(Analyzer a, Field operand, Scope scope, Span span, String verb) {
        return checkRead(a, operand, scope, span, verb, false);
    }

    /**
     * The same for a program that shows only what a file is when {@code metadata} ({@code ls}, {@code stat}):
     * a file that exists and is not a directory is then not read; a directory's names still count.
     */
    public static boolean checkRead(Analyzer a, Field operand, Scope scope, Span span, String verb, boolean metadata) {
        if (operand.hasHoles()) {
            a.add(Checks.DYNAMIC_ARGUMENT, Tier.ASK, "the path " + operand.display()
                    + " is computed at run time, so shellgate cannot check it against sensitive paths", span);
            return true;
        }
        for (String path : candidates(a, operand, scope)) {
            if (path == null) {
                a.add(Checks.DYNAMIC_ARGUMENT, Tier.ASK, "the path " + operand.display()
                        + " cannot be checked (its pattern matches too many files, or the working directory is unknown)", span);
                return true;
            }
            if (metadata && a.host.realPath(Path.of(path)) != null && !a.host.isDirectory(Path.of(path))) {
                continue;
            }
            String hit = sensitive(a, path, scope);
            if (hit == null && !operand.hasGlob()) {
                // symbolic links are followed before ".." is applied: resolve the path as written
                hit = linked(a, operand.plain(), scope);
            }
            if (hit != null) {
                a.add(Checks.SENSITIVE_PATH, Tier.ASK, verb + " " + hit + ", which may hold secrets", span);
                return true;
            }
        }
        return false;
    }

    /** Asks when reading {@code dir} recursively would reach sensitive paths. */
    static boolean checkRecursive(Analyzer a, Field operand, Scope scope, Span span) {
        return checkRecursive(a, operand, scope, span, name -> true);
    }

    /**
     * Asks when reading {@code dir} recursively would reach sensitive paths whose file names pass
     * {@code names} (find's {@code -name} tests narrow what {@code -exec} gets).
     */
    static boolean checkRecursive(Analyzer a, Field operand, Scope scope, Span span,
            java.util.function.Predicate<String> names) {
        return checkRecursive(a, operand, scope, span, names, false);
    }

    /**
     * The same for a reader that skips hidden files and directories when {@code skipHidden}
     * ({@code rg} without {@code --hidden}).
     */
    static boolean checkRecursive(Analyzer a, Field operand, Scope scope, Span span,
            java.util.function.Predicate<String> names, boolean skipHidden) {
        return checkRecursive(a, operand, scope, span, names, skipHidden, false);
    }

    /**
     * The same for a reader that opens the links it meets when {@code follow} ({@code find -exec cat {} +}
     * hands each link to cat): a link is then judged by where it leads.
     */
    static boolean checkRecursive(Analyzer a, Field operand, Scope scope, Span span,
            java.util.function.Predicate<String> names, boolean skipHidden, boolean follow) {
        if (operand.hasHoles()) {
            return checkRead(a, operand, scope, span, "reads");
        }
        String home = Redirects.home(scope);
        PathSet set = a.policy.paths("sensitive");
        for (String path : candidates(a, operand, scope)) {
            String run = path == null ? null : a.gateSecrets.under(path);
            if (run != null && a.host.isDirectory(Path.of(run))) {
                a.add(Checks.SENSITIVE_PATH, Tier.ASK, "reads everything under " + path + " recursively, including "
                        + run + ", shellgate's run directory, whose files let a program answer in the judge's place", span);
                return true;
            }
            if (path != null && set.isAncestorOfMember(path, home, skipHidden)) {
                a.add(Checks.SENSITIVE_PATH, Tier.ASK, "reads everything under " + path
                        + " recursively, which includes files that may hold secrets", span);
                return true;
            }
            String root = path == null ? null : path.equals("/") ? "/" : path + "/";
            String inside = path == null ? null : a.host.findInside(Path.of(path), "sensitive:" + home + (follow ? TreeScan.FOLLOW : ""),
                    p -> set.contains(p, home), p -> names.test(p.substring(p.lastIndexOf('/') + 1))
                            && !(skipHidden && p.startsWith(root) && PathSet.hidden(p.substring(root.length()))));
            if (inside != null) {
                a.add(Checks.SENSITIVE_PATH, Tier.ASK, "reads everything under " + path + " recursively, including "
                        + inside + ", which may hold secrets", span);
                return true;
            }
        }
        return false;
    }

    private static String linked(Analyzer a, String text, Scope scope) {
        if (!text.contains("..") && !text.contains("/")) {
            return null;
        }
        for (Path cwd : scope.cwds) {
            Path raw = text.startsWith("/") ? Path.of(text) : cwd.resolve(text);
            Path real = a.host.realPath(raw);
            if (real != null && (a.policy.paths("sensitive").contains(real.toString(), Redirects.home(scope))
                    || a.gateSecrets.holding(real.toString()) != null)) {
                return text + " (which is " + real + ")";
            }
        }
        return null;
    }

    private static String sensitive(Analyzer a, String path, Scope scope) {
        String home = Redirects.home(scope);
        PathSet set = a.policy.paths("sensitive");
        if (set.contains(path, home)) {
            return path;
        }
        String run = a.gateSecrets.holding(path);
        if (run != null) {
            return path + " (in " + run + ", shellgate's run directory, whose files let a program answer in the judge's place)";
        }
        Path real = a.host.realPath(Path.of(path));
        if (real == null) {
            // a link to a file that does not exist yet (or cannot be read) is judged by where it leads
            real = a.host.linkTarget(Path.of(path));
        }
        if (real != null && !real.toString().equals(path)
                && (set.contains(real.toString(), home) || a.gateSecrets.holding(real.toString()) != null)) {
            return path + " (a link to " + real + ")";
        }
        return null;
    }

    /** The absolute paths an operand may name; null entries stand for "cannot tell". */
    static List<String> candidates(Analyzer a, Field operand, Scope scope) {
        List<String> out = new ArrayList<>();
        List<String> texts = new ArrayList<>();
        if (operand.hasGlob()) {
            for (Path cwd : scope.cwds) {
                List<Path> matches = a.host.glob(cwd, operand, GLOB_LIMIT);
                if (matches == null) {
                    out.add(null);
                    return out;
                }
                matches.forEach(m -> out.add(ShellPaths.canonical(m.toString(), cwd)));
            }
        }
        texts.add(operand.plain());
        boolean relative = !operand.plain().startsWith("/");
        if (relative && scope.cwds.isEmpty()) {
            out.add(null);
            return out;
        }
        for (String t : texts) {
            if (relative) {
                for (Path cwd : scope.cwds) {
                    out.add(ShellPaths.canonical(t, cwd));
                }
            } else {
                out.add(ShellPaths.canonical(t, null));
            }
        }
        return out;
    }
}
