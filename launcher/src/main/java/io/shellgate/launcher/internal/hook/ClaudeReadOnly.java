package io.shellgate.launcher.internal.hook;

import java.util.Set;
import java.util.regex.Pattern;

/**
 * The commands Claude Code may run without asking because it holds them read-only, drawn wide: Claude Code keeps such
 * a list of its own (programs such as {@code cat}, {@code ls}, {@code grep}, {@code sed}, {@code echo}, and read-only
 * subcommands of {@code git}, {@code gh}, {@code docker}), which changes between its releases and which a hook does not
 * see. A line whose program is here, or is a wrapper that runs another, is never left to Claude Code's own dialog:
 * without the hook's ask it could run unasked.
 */
final class ClaudeReadOnly {

    /** Programs that read, search, print or transform, and shell words that change nothing outside the shell. */
    private static final Set<String> PROGRAMS = Set.of(
            "cat", "head", "tail", "less", "more", "wc", "stat", "file", "strings", "od", "hexdump", "xxd", "base64",
            "base32", "sha256sum", "sha1sum", "sha512sum", "md5sum", "shasum", "cksum", "sum", "diff", "cmp", "comm",
            "readlink", "realpath", "basename", "dirname", "ls", "dir", "vdir", "find", "fd", "tree", "grep", "egrep",
            "fgrep", "rg", "ag", "ack", "which", "whereis", "locate", "du", "df", "sed", "awk", "gawk", "mawk", "jq", "yq",
            "cut", "tr", "sort", "uniq", "paste", "column", "fold", "fmt", "rev", "tac", "nl", "expand", "unexpand",
            "numfmt", "iconv", "join", "split", "tsort", "pr", "look", "echo", "printf", "pwd", "cd", "true", "false",
            "test", "[", "expr", "seq", "getconf", "date", "cal", "sleep", "type", "id", "whoami", "groups", "hostname",
            "uname", "uptime", "nproc", "arch", "free", "ps", "pgrep", "lsof", "netstat", "ss", "env", "printenv", "tty",
            "locale", "man", "info", "help", "zcat", "bzcat", "xzcat", "zgrep", "lsblk", "mount", "history", "jobs",
            "export", "alias", "hash", "set");

    /** Programs that run another program: what they run is what Claude Code judges. */
    private static final Set<String> WRAPPERS = Set.of("timeout", "time", "nice", "nohup", "stdbuf", "command",
            "builtin", "xargs", "sudo", "doas", "exec", "setsid", "ionice", "taskset", "caffeinate", "noglob", "watch",
            "parallel", "unbuffer");

    /** Programs with subcommands of which some are read-only ({@code git status}, {@code docker ps}). */
    private static final Set<String> WITH_SUBCOMMANDS = Set.of("git", "gh", "docker", "podman", "kubectl", "npm",
            "pnpm", "yarn", "cargo", "go", "pip", "pip3", "uv", "brew", "helm", "terraform", "aws", "gcloud", "az");

    /** Their read-only subcommands, of all of them together. */
    private static final Set<String> READ_ONLY_SUBCOMMANDS = Set.of("status", "diff", "log", "show", "blame",
            "ls-files", "ls-tree", "ls-remote", "grep", "rev-parse", "rev-list", "describe", "branch", "tag", "remote",
            "config", "stash", "reflog", "shortlog", "cat-file", "merge-base", "show-ref", "for-each-ref", "worktree",
            "whatchanged", "name-rev", "count-objects", "var", "check-ignore", "help", "version", "view", "list", "ls",
            "ps", "images", "logs", "inspect", "info", "get", "top", "explain", "api-resources",
            "cluster-info", "outdated", "tree", "metadata", "env", "freeze", "search", "api", "plan", "validate", "why",
            "audit");

    private static final Pattern ASSIGNMENT = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*=.*");

    private ClaudeReadOnly() {}

    /** Whether Claude Code might run this line without asking as a read-only command. */
    static boolean mayRunUnasked(String line) {
        String[] words = line.strip().split("\\s+");
        int i = 0;
        while (i < words.length && ASSIGNMENT.matcher(words[i]).matches()) {
            i++;
        }
        if (i == words.length) {
            // assignments alone change only the shell
            return true;
        }
        String word = words[i].replaceAll("^['\"]+|['\"]+$", "");
        String program = word.substring(word.lastIndexOf('/') + 1);
        if (program.isEmpty() || PROGRAMS.contains(program) || WRAPPERS.contains(program)) {
            return true;
        }
        if (WITH_SUBCOMMANDS.contains(program)) {
            for (int j = i + 1; j < words.length; j++) {
                if (READ_ONLY_SUBCOMMANDS.contains(words[j].replaceAll("^['\"]+|['\"]+$", ""))) {
                    return true;
                }
            }
        }
        return false;
    }
}
