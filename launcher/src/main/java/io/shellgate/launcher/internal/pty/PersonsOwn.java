package io.shellgate.launcher.internal.pty;

import io.shellgate.judge.CommandInfo;
import io.shellgate.judge.JudgeRequest;
import io.shellgate.judge.Reason;
import io.shellgate.judge.Verdict;
import io.shellgate.rules.Tier;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.function.Function;
import java.util.regex.Pattern;

/**
 * Asks a person at their own guarded shell is not asked about: the shell's own state ({@code export FOO=bar},
 * {@code alias}, {@code shopt}), their own startup files ({@code source ~/.bashrc}), and pagers and editors on files
 * that are not secrets. Only for a terminal a person types into: where an agent drives it, these ask as everywhere.
 * Nothing else on the line may need review, and a deny is never touched.
 */
final class PersonsOwn {

    /** Built-ins that change or show only the shell's own state. */
    private static final Set<String> STATE = Set.of("export", "alias", "unalias", "shopt", "setopt", "unsetopt", "set",
            "bind", "complete", "compdef", "typeset", "declare", "hash", "cd", "pushd", "popd", "dirs", "umask");
    private static final Set<String> STATE_REASONS = Set.of("shell-state", "environment-assignment");
    /** Programs a person reads or edits files with, at the terminal. */
    private static final Set<String> VIEWERS = Set.of("less", "more", "most", "man", "vim", "vi", "view", "nvim", "nano",
            "pico", "micro", "emacs", "mg");
    private static final Set<String> VIEWER_REASONS = Set.of("not-read-only", "option-not-permitted");
    /** The shells' startup files in a home folder. */
    private static final Set<String> STARTUP = Set.of(".bashrc", ".bash_profile", ".bash_login", ".bash_aliases", ".profile",
            ".zshrc", ".zprofile", ".zshenv", ".zlogin", ".aliases");
    /** {@code source FILE} or {@code . FILE}, and nothing else: no operator, redirection, expansion but {@code ~}. */
    private static final Pattern SOURCE = Pattern.compile("\\s*(?:source|\\.)\\s+([^\\s;&|<>$`(){}\"'\\\\*?\\[]+)\\s*");

    private PersonsOwn() {}

    /**
     * Why {@code verdict}, an ask, needs no person's review when a person typed the line at their own terminal; null
     * when it does.
     *
     * @param judge judges another line in the same folder and environment (to tell whether files are secrets)
     * @param home the gate's home folder, whose startup files are the person's own
     */
    static String why(JudgeRequest request, Verdict verdict, Function<String, Verdict> judge, String home) {
        if (verdict.tier() != Tier.ASK || request.command() == null) {
            return null;
        }
        String line = request.command();
        var source = SOURCE.matcher(line);
        if (source.matches() && home != null && startupFile(source.group(1), request.cwd(), home)) {
            return "typed by the person at their guarded shell: reads their own startup file " + source.group(1);
        }
        List<String> viewed = new ArrayList<>();
        boolean viewer = false;
        for (CommandInfo c : verdict.commands()) {
            if (c.tier() == Tier.ALLOW) {
                continue;
            }
            if (c.argv().isEmpty() || !c.wrappers().isEmpty()) {
                return null;
            }
            String name = c.argv().getFirst();
            if (VIEWERS.contains(name) && c.resolved().startsWith("/")) {
                viewer = true;
                c.argv().subList(1, c.argv().size()).stream().filter(a -> !a.startsWith("-") && !a.startsWith("+"))
                        .forEach(viewed::add);
            } else if (!STATE.contains(name) || !CommandInfo.BUILTIN.equals(c.resolved())) {
                return null;
            }
        }
        for (Reason r : verdict.reasons()) {
            if (r.tier() == Tier.ASK && !STATE_REASONS.contains(r.rule()) && !(viewer && VIEWER_REASONS.contains(r.rule()))) {
                return null;
            }
        }
        if (!viewer) {
            return "typed by the person at their guarded shell: changes the shell's own state";
        }
        if (line.contains("$") || line.contains("`")) {
            return null;
        }
        if (!viewed.isEmpty()) {
            // a file an agent may not read without asking is a secret here too
            StringBuilder cat = new StringBuilder("cat --");
            for (String f : viewed) {
                cat.append(" '").append(f.replace("'", "'\\''")).append('\'');
            }
            Verdict read = judge.apply(cat.toString());
            if (read == null || read.tier() != Tier.ALLOW) {
                return null;
            }
        }
        return "typed by the person at their guarded shell: a pager or editor on files that are not secrets";
    }

    private static boolean startupFile(String word, Path cwd, String home) {
        try {
            Path file = word.startsWith("~/") ? Path.of(home, word.substring(2)) : cwd.resolve(word);
            file = file.toAbsolutePath().normalize();
            return STARTUP.contains(String.valueOf(file.getFileName()))
                    && file.getParent() != null && file.getParent().equals(Path.of(home).toAbsolutePath().normalize());
        } catch (InvalidPathException e) {
            return false;
        }
    }
}
