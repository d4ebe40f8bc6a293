package io.shellgate.judge.internal.analysis;

import io.shellgate.rules.Tier;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * git: read-only subcommands are allowed only without global options that run code or change
 * the repository, without options that write files or run external diff and textconv programs,
 * and in a repository whose local config does not make git run programs. Listing subcommands
 * ({@code git branch}, {@code git tag}...) are read-only only in their listing forms.
 */
final class GitCheck {

    private static final Set<String> FORBIDDEN = Set.of("--output", "--ext-diff", "--textconv", "--exec",
            "--open-files-in-pager", "-O", "--upload-pack", "--receive-pack", "--filters", "--run", "--paginate", "-p");
    private static final Set<String> PATCH_OK = Set.of("log", "show", "diff", "whatchanged", "diff-tree", "diff-files",
            "diff-index", "range-diff", "stash", "blame", "annotate", "grep", "shortlog", "cat-file", "rev-list");
    private static final Set<String> BRANCH_LIST = Set.of("-a", "--all", "-r", "--remotes", "-l", "--list", "-v", "-vv",
            "--verbose", "--show-current", "--contains", "--no-contains", "--merged", "--no-merged", "--points-at",
            "--column", "--no-column", "--color", "--no-color", "-i", "--ignore-case", "--omit-empty", "-q", "--quiet");
    private static final Set<String> BRANCH_LIST_VALUE = Set.of("--format", "--sort", "--abbrev", "--contains",
            "--no-contains", "--merged", "--no-merged", "--points-at");

    private GitCheck() {}

    static List<String> check(Analyzer a, CommandJudge.Invocation inv, String sub, List<Field> before, List<Field> args) {
        List<String> problems = new ArrayList<>();
        Set<String> readOnlyGlobals = a.policy.readOnlyGlobalOptions.getOrDefault("git", Set.of());
        for (Field f : before) {
            String name = f.plain().contains("=") ? f.plain().substring(0, f.plain().indexOf('=')) : f.plain();
            if (!readOnlyGlobals.contains(name)) {
                problems.add("the global option " + name + " can make git run programs or use another repository");
                return problems;
            }
        }
        for (Field f : args) {
            if (!f.isLiteral()) {
                if (f.mayBeOption()) {
                    problems.add("the argument " + f.display() + " is computed at run time and could be an option");
                    return problems;
                }
                continue;
            }
            String t = f.plain();
            String name = t.startsWith("--") && t.contains("=") ? t.substring(0, t.indexOf('=')) : t;
            if (name.equals("--")) {
                break;
            }
            if (t.startsWith("-O") && sub.equals("grep") || FORBIDDEN.contains(name) && !(name.equals("-p") && PATCH_OK.contains(sub))) {
                problems.add("the option " + name + " makes git write a file or run a program");
                return problems;
            }
        }
        String listing = listing(sub, args);
        if (listing != null) {
            problems.add(listing);
            return problems;
        }
        Path cwd = inv.scope.singleCwd();
        String config = cwd == null ? "the working directory is not known" : a.host.gitConfigProblem(cwd);
        if (config != null) {
            a.add(Checks.GIT_REPO_CONFIG, Tier.ASK, "git: " + config + "; review the repository's config before running git in it",
                    inv.span());
        }
        return problems;
    }

    /** Why the arguments are not a listing form of a listing subcommand; null when they are, or for other subcommands. */
    private static String listing(String sub, List<Field> args) {
        List<String> words = args.stream().map(Field::plain).toList();
        List<String> operands = words.stream().filter(w -> !w.startsWith("-")).toList();
        return switch (sub) {
            case "branch", "tag" -> {
                boolean list = words.contains("-l") || words.contains("--list") || sub.equals("branch")
                        && (words.contains("-a") || words.contains("-r") || words.contains("--all") || words.contains("--remotes"));
                for (int i = 0; i < words.size(); i++) {
                    String w = words.get(i);
                    String n = w.contains("=") ? w.substring(0, w.indexOf('=')) : w;
                    if (!w.startsWith("-")) {
                        if (i > 0 && BRANCH_LIST_VALUE.contains(words.get(i - 1))) {
                            continue;
                        }
                        if (!list) {
                            yield "git " + sub + " with a name creates or changes a " + sub;
                        }
                    } else if (!(BRANCH_LIST.contains(n) || BRANCH_LIST_VALUE.contains(n) || n.matches("-n\\d*"))) {
                        yield "git " + sub + " " + n + " changes " + sub + "es";
                    }
                }
                yield null;
            }
            case "remote" -> words.isEmpty() || words.equals(List.of("-v")) || words.equals(List.of("--verbose"))
                    || !words.isEmpty() && words.getFirst().equals("get-url") ? null : "git remote with these arguments changes remotes or contacts them";
            case "stash" -> !words.isEmpty() && (words.getFirst().equals("list") || words.getFirst().equals("show"))
                    ? null : "git stash without list or show changes the working tree or the stash";
            case "worktree" -> words.equals(List.of("list")) || words.size() > 1 && words.getFirst().equals("list")
                    && words.subList(1, words.size()).stream().allMatch(w -> w.equals("--porcelain") || w.equals("-v") || w.equals("-z"))
                    ? null : "git worktree without list changes worktrees";
            case "config" -> (words.contains("--get") || words.contains("--get-all")) && operands.size() == 1
                    || words.stream().allMatch(w -> w.startsWith("--") && Set.of("--global", "--local", "--system", "--show-origin",
                            "--show-scope", "--includes", "--no-includes", "--null").contains(w)) && operands.size() == 1
                    ? null : "git config with these arguments sets values or prints every setting (which may include tokens)";
            case "submodule" -> words.equals(List.of("status")) || words.isEmpty() ? null
                    : "git submodule without status changes submodules";
            case "notes" -> !words.isEmpty() && (words.getFirst().equals("list") || words.getFirst().equals("show"))
                    ? null : "git notes without list or show changes notes";
            case "reflog" -> words.isEmpty() || words.getFirst().equals("show") || words.getFirst().startsWith("-")
                    ? null : "git reflog " + words.getFirst() + " changes the reflog";
            default -> null;
        };
    }
}
