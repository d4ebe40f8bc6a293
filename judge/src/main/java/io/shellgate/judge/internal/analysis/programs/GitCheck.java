package io.shellgate.judge.internal.analysis.programs;

import io.shellgate.judge.internal.analysis.host.GitProbe;
import io.shellgate.judge.internal.analysis.host.GitRepository;
import io.shellgate.judge.internal.analysis.host.GitSettings;
import io.shellgate.judge.internal.analysis.model.Checks;
import io.shellgate.judge.internal.analysis.model.Field;
import io.shellgate.judge.internal.analysis.options.OptionParser;
import io.shellgate.judge.internal.analysis.walk.CheckContext;
import io.shellgate.judge.internal.analysis.walk.Invocation;
import io.shellgate.judge.internal.analysis.walk.ProgramCheck;
import io.shellgate.rules.ReadOnlyCommand;
import io.shellgate.rules.Tier;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * git: the subcommand's arguments are parsed with its grammar, as git's parse-options reads them
 * (options listed in full, {@code --no-} forms, bundles, attached values); global options before
 * the subcommand are only those that change neither the program run nor the repository, and
 * {@code -C DIR}. Files git reads are checked against the sensitive paths: option values of the
 * file kind, {@code REV:PATH} and pathspecs, both sides of {@code git diff} and every file under
 * the folders of a diff git runs as {@code --no-index} ({@link GitPrinted}), the untracked files of
 * {@code git grep --untracked}. The listing subcommands are read-only only in their listing forms.
 * Which repository the command runs in and which settings apply there come from git itself
 * ({@link GitProbe}): no setting in any scope may make git run programs ({@link GitSettings}), a
 * partial clone makes forms that read objects by name ask, and what git would print must hold no
 * credential. Formats with signature placeholders ask, as {@code --show-signature} does.
 */
public final class GitCheck implements ProgramCheck {

    /** Subcommands whose operands name tracked or untracked files whose contents they print. */
    private static final Set<String> READS_PATHS = Set.of("log", "show", "whatchanged", "diff", "diff-tree", "diff-files",
            "diff-index", "range-diff", "stash", "blame", "annotate", "grep", "cat-file", "reflog");

    @Override
    public List<String> custom(CheckContext c, Invocation inv, ReadOnlyCommand entry, String sub, List<Field> before,
            List<Field> args) {
        return check(c, inv, entry, sub, before, args);
    }

    static List<String> check(CheckContext a, Invocation inv, ReadOnlyCommand entry, String sub, List<Field> before,
            List<Field> args) {
        List<String> problems = new ArrayList<>();
        String dir = globals(a, before, problems);
        if (!problems.isEmpty()) {
            return problems;
        }
        OptionParser.Parsed parsed = a.policy().readOnlyParsers.get(entry).parse(args, false);
        a.optionCode(inv, parsed);
        if (!parsed.problems().isEmpty()) {
            return parsed.problems();
        }
        if (!parsed.dynamic().isEmpty()) {
            return List.of("the argument " + parsed.dynamic().getFirst().display() + " is computed at run time and could be an option");
        }
        if (sub.equals("config") && inv.env.containsKey("GIT_CONFIG")) {
            return List.of("git config reads the file GIT_CONFIG names instead of the configuration shellgate checks");
        }
        String form = GitForms.problem(sub, parsed);
        if (form != null) {
            return List.of(form);
        }
        if (entry.operands() == io.shellgate.rules.ReadOnlyCommand.Operands.NONE && !parsed.operands().isEmpty()) {
            return List.of("it takes no operands here");
        }
        for (OptionParser.Opt o : parsed.options()) {
            a.optionValue(inv, o.value() == null ? o : new OptionParser.Opt(o.name(), in(dir, o.value()), o.raw(), o.spec()));
            if (o.name().equals("-L") && o.value() != null && o.value().plain().contains(":")) {
                path(a, inv, dir, o.value().plain().substring(o.value().plain().lastIndexOf(':') + 1));
            }
        }
        if (READS_PATHS.contains(sub)) {
            List<Field> operands = parsed.operands();
            if (sub.equals("grep") && !parsed.hasAny(entry.patternOptions()) && !operands.isEmpty()) {
                operands = operands.subList(1, operands.size());
            }
            for (Field f : operands) {
                if (f.isLiteral()) {
                    path(a, inv, dir, pathPart(f.plain()));
                }
            }
            if (sub.equals("grep") && (parsed.has("--untracked") || parsed.has("--no-index"))) {
                for (Field f : operands.isEmpty() ? List.of(Field.literal(".")) : operands) {
                    a.checkRecursive(in(dir, f), inv.scope, inv.span());
                }
            }
        }
        for (OptionParser.Opt o : parsed.options()) {
            if ((o.name().equals("--format") || o.name().equals("--pretty")) && o.value() != null
                    && GitSettings.signatureFormat(o.value().plain())) {
                return List.of("the format " + o.value().display() + " shows signature facts, for which git runs gpg"
                        + " (as --show-signature does)");
            }
        }
        Path cwd = inv.scope.singleCwd();
        Path where = cwd == null ? null : dir == null ? cwd : cwd.resolve(dir).normalize();
        GitRepository repo = repository(a, inv, where);
        if (repo == null) {
            return List.of();
        }
        String lazy = GitSettings.lazyFetch(repo);
        if (lazy != null && readsObjects(sub, parsed) && !before.stream().anyMatch(f -> f.plain().equals("--no-lazy-fetch"))
                && !"1".equals(literal(inv, "GIT_NO_LAZY_FETCH"))) {
            a.add(Checks.GIT_REPO_CONFIG, Tier.ASK, "git: the repository fetches missing objects from its promisor remote ("
                    + lazy + "), so git " + sub + " may contact it or run its transport; git --no-lazy-fetch " + sub
                    + " reads only what is there", inv.span());
        }
        String printed = GitPrinted.credential(sub, parsed, repo);
        if (printed != null) {
            a.add(Checks.GIT_CREDENTIAL, Tier.ASK, "git: " + printed, inv.span());
        }
        if (sub.equals("diff")) {
            GitPrinted.noIndex(a, inv, args, parsed, repo, where);
        }
        return List.of();
    }

    /**
     * What git says about the repository the command runs in, or null after asking: git could not
     * say, or the settings that apply make read-only forms run programs.
     */
    private static GitRepository repository(CheckContext a, Invocation inv, Path where) {
        if (where == null) {
            a.add(Checks.GIT_REPO_CONFIG, Tier.ASK, "git: the working directory is not known, so neither is the repository"
                    + " and its config", inv.span());
            return null;
        }
        java.util.Map<String, String> env = new java.util.TreeMap<>();
        for (var e : inv.env.entrySet()) {
            if (GitProbe.passes(e.getKey())) {
                if (!e.getValue().isLiteral()) {
                    a.add(Checks.GIT_REPO_CONFIG, Tier.ASK, "git: " + e.getKey() + " is computed at run time, and it chooses"
                            + " the repository or the config git reads", inv.span());
                    return null;
                }
                env.put(e.getKey(), e.getValue().text());
            }
        }
        String differs = otherGit(a, inv, where);
        if (differs != null) {
            a.add(Checks.GIT_REPO_CONFIG, Tier.ASK, "git: " + differs, inv.span());
            return null;
        }
        GitRepository repo = a.host().git(where, env);
        String problem = repo.anyProblem();
        if (problem == null) {
            problem = GitSettings.danger(repo);
        }
        if (problem != null) {
            a.add(Checks.GIT_REPO_CONFIG, Tier.ASK, "git: " + problem + "; review the config before running git here",
                    inv.span());
            return null;
        }
        return repo;
    }

    /**
     * Why the git this line runs is not the one shellgate asks about repositories, or null: what
     * one git says about discovery and settings is not proven for another build of it.
     */
    private static String otherGit(CheckContext a, Invocation inv, Path where) {
        Path asked = a.host().gitProgram();
        String path = inv.path();
        if (asked == null || path == null || inv.argv.isEmpty()) {
            return null;
        }
        String name = inv.argv.getFirst().isLiteral() ? inv.argv.getFirst().plain() : null;
        io.shellgate.judge.internal.analysis.host.HostView.Resolution r = a.host().resolve(name == null ? "git" : name, path, where);
        if (r.kind() != io.shellgate.judge.internal.analysis.host.HostView.Resolution.Kind.FILE) {
            return null;
        }
        Path runs = a.host().realPath(r.path());
        Path trusted = a.host().realPath(asked);
        return runs != null && runs.equals(trusted) ? null : "this line runs " + r.path() + ", and shellgate asks "
                + asked + " where the repository is and which settings apply; run " + asked + " or put it first on PATH";
    }

    /** Whether this form may read objects by name, which a partial clone fetches when they are missing. */
    private static boolean readsObjects(String sub, OptionParser.Parsed parsed) {
        return switch (sub) {
            case "status", "remote", "config", "ls-files", "worktree", "var", "version", "help", "check-ignore" -> false;
            case "rev-parse", "branch", "tag" -> !parsed.operands().isEmpty() || parsed.hasAny(List.of("--contains",
                    "--no-contains", "--merged", "--no-merged", "--points-at", "--with", "--without"));
            default -> true;
        };
    }

    private static String literal(Invocation inv, String name) {
        Field f = inv.env.get(name);
        return f != null && f.isLiteral() ? f.text() : null;
    }

    /**
     * Checks the options before the subcommand; returns the directory {@code -C} moves git to (null for none).
     */
    private static String globals(CheckContext a, List<Field> before, List<String> problems) {
        Set<String> readOnly = a.policy().readOnlyGlobalOptions.getOrDefault("git", Set.of());
        String dir = null;
        for (int i = 0; i < before.size(); i++) {
            Field f = before.get(i);
            String t = f.plain();
            String name = t.startsWith("--") && t.contains("=") ? t.substring(0, t.indexOf('=')) : t;
            if (t.equals("-C") && i + 1 < before.size() && before.get(i + 1).isLiteral() && f.isLiteral()) {
                String d = before.get(++i).plain();
                dir = dir == null || d.startsWith("/") ? d : dir + "/" + d;
                if (dir.startsWith("/") && a.policy().trust.isUntrusted(Path.of(dir))) {
                    problems.add("the global option -C " + d + " points git at a directory others can change before git reads its config");
                    return null;
                }
            } else if (!f.isLiteral() || !readOnly.contains(name)) {
                problems.add("the global option " + f.display() + " can make git run programs or use another repository");
                return null;
            }
        }
        return dir;
    }

    /** The path part of a revision-and-path operand: {@code HEAD:.env}, {@code :0:x}, {@code :(glob)**}, or the operand. */
    static String pathPart(String t) {
        if (t.startsWith(":(")) {
            int close = t.indexOf(')');
            return close < 0 ? t : t.substring(close + 1);
        }
        if (t.startsWith(":/") || t.startsWith(":!") || t.startsWith(":^")) {
            return t.substring(2);
        }
        int colon = t.indexOf(':');
        if (colon < 0) {
            return t;
        }
        String rest = t.substring(colon + 1);
        return rest.length() > 1 && Character.isDigit(rest.charAt(0)) && rest.charAt(1) == ':' ? rest.substring(2) : rest;
    }

    private static void path(CheckContext a, Invocation inv, String dir, String path) {
        if (!path.isEmpty()) {
            a.checkRead(in(dir, Field.literal(path)), inv.scope, inv.span(), "reads");
        }
    }

    /** A path as git sees it after {@code -C}. */
    private static Field in(String dir, Field f) {
        String t = f.text();
        if (dir == null || t.startsWith("/") || t.startsWith("~") || t.equals("-")) {
            return f;
        }
        return new Field(dir + "/" + t, f.producers(), f.processSub(), f.expanded());
    }

    /** Whether a config key can hold a credential: git config --get prints it. */
    static boolean secretKey(String key) {
        String k = key.toLowerCase(Locale.ROOT);
        String section = k.contains(".") ? k.substring(0, k.indexOf('.')) : k;
        return Set.of("http", "https", "credential", "url", "sendemail", "imap").contains(section) || k.contains("password")
                || k.contains("passwd") || k.contains("token") || k.contains("secret") || k.contains("extraheader")
                || k.contains("cookie") || k.endsWith(".pass") || k.contains("auth") || k.endsWith(".key") || k.endsWith("apikey");
    }
}
