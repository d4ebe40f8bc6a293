package io.shellgate.judge.internal.analysis.host;

import java.util.List;
import java.util.Locale;

/**
 * What the settings git reports for a repository mean for read-only git commands: settings that
 * make them run programs ({@code core.fsmonitor} on status, {@code core.pager}, textconv and
 * external diff drivers, filters, signature checks), a repository that fetches missing objects on
 * demand (a partial clone: reading an object it lacks contacts the promisor remote, whose
 * {@code ext::} URL may run a shell), and values that hold credentials.
 */
public final class GitSettings {

    private GitSettings() {}

    /** Why read-only git commands are not safe with these settings (any scope, submodules included), or null. */
    public static String danger(GitRepository repo) {
        for (GitRepository.Setting s : repo.allSettings()) {
            boolean repositoryScope = !s.scope().equals("global") && !s.scope().equals("system");
            String why = dangerous(GitRepository.normal(s.key()), s.value() == null ? "true" : s.value(), repositoryScope);
            if (why != null) {
                return "the " + s.where() + " sets " + s.key() + ", " + why;
            }
        }
        return null;
    }

    /** The setting that lets git fetch missing objects on demand, or null. */
    public static String lazyFetch(GitRepository repo) {
        for (GitRepository.Setting s : repo.allSettings()) {
            String k = GitRepository.normal(s.key());
            String v = s.value() == null ? "true" : s.value();
            if (k.equals("extensions.partialclone") || k.startsWith("remote.") && (k.endsWith(".promisor") && !isFalse(v)
                    || k.endsWith(".partialclonefilter"))) {
                return s.key() + " (" + s.where() + ")";
            }
        }
        return null;
    }

    /**
     * Why {@code key} makes read-only git forms run a program or read elsewhere. Keys that only
     * commands outside those forms use (editors, hooks, merge drivers, ssh, help viewers) count in
     * the repository's own scopes alone, as they always did, not in a user's or the system's
     * configuration, where they are common and never reached by a read-only form.
     */
    private static String dangerous(String key, String value, boolean repositoryScope) {
        String section = key.contains(".") ? key.substring(0, key.indexOf('.')) : key;
        String last = key.substring(key.lastIndexOf('.') + 1);
        String why = switch (section) {
            case "core" -> switch (last) {
                case "fsmonitor" -> isFalse(value) ? null : "which git status runs as a program";
                case "pager" -> plainPager(value) ? null : "which git runs to show output";
                case "worktree" -> "which points git at another directory as the working tree";
                case "trace2" -> "which makes git write trace files";
                default -> null;
            };
            // pager.<command> = false (or true: the default pager) names no program
            case "pager" -> isFalse(value) || isTrue(value) || plainPager(value) ? null : "which git runs to show output";
            case "trace2" -> "which makes git write trace files";
            case "diff" -> last.equals("external") || last.equals("textconv") || last.equals("command")
                    ? "which git diff and log run as a program" : null;
            case "filter" -> last.equals("clean") || last.equals("smudge") || last.equals("process")
                    ? "a filter program git runs on files" : null;
            // signatures are checked (gpg run) only by forms that ask, and where these make git log check them
            case "log" -> last.equals("showsignature") && !isFalse(value) ? "which makes git log run gpg" : null;
            case "format", "pretty" -> (section.equals("pretty") || last.equals("pretty")) && signatureFormat(value)
                    ? "a format whose signature placeholders make git run gpg" : null;
            // credential.helper, gpg.program and the like are not here: the read-only forms that could reach
            // them (a lazy fetch, a signature check) ask on their own
            default -> null;
        };
        if (why != null || !repositoryScope) {
            return why;
        }
        return switch (section) {
            case "core" -> switch (last) {
                case "hook" -> "which names a hook program";
                case "hookspath" -> "which points git at hook programs";
                case "sshcommand", "gitproxy", "alternaterefscommand", "editor", "askpass" -> "which git runs as a program";
                default -> null;
            };
            case "man", "browser" -> last.equals("cmd") || last.equals("path") || last.equals("viewer")
                    ? "which git help runs as a program" : null;
            case "web", "help" -> last.equals("browser") ? "which git help runs as a program" : null;
            case "hook" -> "which names a hook program";
            case "sequence" -> last.equals("editor") ? "which git runs as a program" : null;
            case "interactive" -> last.equals("difffilter") ? "which git runs as a program" : null;
            case "merge" -> last.equals("driver") ? "a merge driver git runs as a program" : null;
            case "remote" -> last.equals("uploadpack") || last.equals("receivepack") || last.equals("vcs")
                    ? "which git runs as a program" : null;
            case "uploadpack", "receive" -> last.endsWith("hook") || last.equals("packobjectshook")
                    ? "which runs a hook program" : null;
            default -> null;
        };
    }

    /** A pager setting that is only less, more or cat with display flags. */
    private static boolean plainPager(String value) {
        String[] words = value.strip().split(" +");
        if (!List.of("less", "more", "cat").contains(words[0])) {
            return false;
        }
        for (int i = 1; i < words.length; i++) {
            // display flags only: less -k FILE and --lesskey-src read key files that can set LESSOPEN
            if (words[i].length() < 2 || words[i].charAt(0) != '-' || !words[i].substring(1).chars().allMatch(c -> "FRXSiMNJWc".indexOf(c) >= 0)) {
                return false;
            }
        }
        return true;
    }

    /**
     * Whether a pretty format shows signature facts, which makes git run gpg: {@code %G?},
     * {@code %GG}, {@code %GS}, {@code %GK}... and {@code %(signature)} of for-each-ref.
     */
    public static boolean signatureFormat(String format) {
        for (int i = format.indexOf('%'); i >= 0 && i + 1 < format.length(); i = format.indexOf('%', i + 1)) {
            char next = format.charAt(i + 1);
            if (next == '%') {
                i++;
            } else if (next == 'G' || format.startsWith("(signature", i + 1)) {
                return true;
            }
        }
        return false;
    }

    /**
     * Whether a value that git prints holds a credential: a URL with a password or a token as its
     * user ({@code https://user:token@host}, {@code https://ghp_x@host}); a user name alone in an
     * ssh URL is not one.
     */
    public static boolean holdsCredential(String value) {
        int scheme = value.indexOf("://");
        String authority;
        String protocol = "";
        if (scheme >= 0) {
            protocol = value.substring(0, scheme).toLowerCase(Locale.ROOT);
            String rest = value.substring(scheme + 3);
            int end = rest.length();
            for (char c : new char[] {'/', '?', '#'}) {
                int at = rest.indexOf(c);
                if (at >= 0 && at < end) {
                    end = at;
                }
            }
            authority = rest.substring(0, end);
        } else {
            authority = value.contains(":") ? value.substring(0, value.lastIndexOf(':')) : "";
        }
        int at = authority.lastIndexOf('@');
        if (at < 0) {
            return false;
        }
        String user = authority.substring(0, at);
        if (user.contains(":")) {
            return true;
        }
        return scheme >= 0 && !List.of("ssh", "git+ssh", "ssh+git").contains(protocol);
    }

    private static boolean isTrue(String value) {
        String v = value.toLowerCase(Locale.ROOT);
        return v.equals("true") || v.equals("1") || v.equals("yes") || v.equals("on");
    }

    static boolean isFalse(String value) {
        String v = value.toLowerCase(Locale.ROOT);
        return v.equals("false") || v.equals("0") || v.equals("no") || v.equals("off") || v.isEmpty();
    }
}
