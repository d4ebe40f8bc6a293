package io.shellgate.judge.internal.analysis.programs;

import io.shellgate.judge.internal.analysis.model.Field;
import io.shellgate.judge.internal.analysis.options.OptionParser;
import java.util.List;
import java.util.Set;

/**
 * The forms in which git's listing subcommands only read: {@code git branch} and {@code git tag}
 * without a name (or with a listing option, where names are patterns), {@code git stash list}
 * and {@code show}, {@code git remote} and {@code get-url}, {@code git worktree list},
 * {@code git submodule status}, {@code git notes list} and {@code show}, {@code git reflog}
 * without {@code expire} or {@code delete}, and {@code git config} getting one setting that cannot
 * hold a credential.
 */
final class GitForms {

    private static final List<String> LISTING = List.of("-l", "--list", "--contains", "--no-contains", "--merged",
            "--no-merged", "--points-at", "--with", "--without", "-n");

    private GitForms() {}

    /** Why these arguments are not a read-only form of {@code sub}; null when they are (or {@code sub} has no forms). */
    static String problem(String sub, OptionParser.Parsed parsed) {
        List<String> ops = parsed.operands().stream().map(Field::plain).toList();
        String first = ops.isEmpty() ? "" : ops.getFirst();
        return switch (sub) {
            case "branch", "tag" -> ops.isEmpty() || parsed.hasAny(LISTING) ? null
                    : "git " + sub + " " + first + " creates a " + sub + " (names are patterns only with -l, --list or a filter such as --contains)";
            case "stash" -> first.equals("list") || first.equals("show") ? null
                    : "git stash without list or show changes the working tree or the stash";
            case "remote" -> ops.isEmpty() || first.equals("get-url") && ops.size() == 2 ? null
                    : "git remote with these arguments changes remotes or contacts them";
            case "worktree" -> ops.equals(List.of("list")) ? null : "git worktree without list changes worktrees";
            case "submodule" -> ops.isEmpty() || first.equals("status") ? null : "git submodule without status changes submodules";
            case "notes" -> ops.isEmpty() || first.equals("list") || first.equals("show") ? null
                    : "git notes without list or show changes notes";
            case "reflog" -> Set.of("expire", "delete", "drop").contains(first) ? "git reflog " + first + " changes the reflog" : null;
            case "config" -> config(parsed, ops);
            case "var" -> parsed.has("-l") ? "git var -l prints every variable, the configuration's settings too" : null;
            default -> null;
        };
    }

    private static String config(OptionParser.Parsed parsed, List<String> ops) {
        List<String> keys = parsed.has("--get") || parsed.has("--get-all") ? ops
                : !ops.isEmpty() && ops.getFirst().equals("get") ? ops.subList(1, ops.size()) : null;
        if (keys == null || keys.isEmpty() || keys.size() > 2) {
            return "git config with these arguments sets values or prints every setting (which may include tokens)";
        }
        if (GitCheck.secretKey(keys.getFirst())) {
            return "git config would print " + keys.getFirst() + ", a setting that can hold a credential";
        }
        return null;
    }
}
