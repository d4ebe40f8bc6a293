package io.shellgate.reviewer.internal;

import com.google.re2j.Pattern;
import io.shellgate.judge.CommandInfo;
import io.shellgate.judge.JudgeRequest;
import io.shellgate.judge.Reason;
import io.shellgate.judge.Verdict;
import io.shellgate.rules.Approval;
import io.shellgate.rules.Layer;
import io.shellgate.rules.Policy;
import io.shellgate.rules.Rule;
import io.shellgate.rules.Tier;
import io.shellgate.rules.PolicyLoader;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Finds a remembered approval that covers an ask. An approval covers only what a person could
 * judge from the command line itself: an exact approval never covers reasons that depend on the
 * environment (an untrusted program first on PATH, a dangerous variable, a repository's git
 * config, values of variables); a prefix approval covers only "this program is not read-only"
 * and the policy's own ask rules, for commands that match it, and nothing else on the line.
 */
public final class ApprovalMatcher {

    /** Reasons no remembered approval covers: they depend on more than the text a person approved. */
    private static final Set<String> NEVER = Set.of("untrusted-program", "dangerous-variable", "git-repo-config",
            "imported-function", "shell-state", "dynamic-command", "dynamic-argument", "input-too-large", "git-credential",
            "nesting-too-deep", "time-budget", "work-budget", "internal-error", "unusual-characters");
    /** Built-in reasons a prefix approval covers: the program is simply not on the read-only list. */
    private static final Set<String> PREFIX_COVERS = Set.of("not-read-only", "option-not-permitted");

    private final List<Approval> approvals;
    private final Set<String> askRules;
    private final Set<String> managedAskRules;
    /** The gate's home, for approvals limited to {@code ~/…}: never the command's, which it may have changed. */
    private final String home;

    ApprovalMatcher(Policy policy, String home) {
        this.home = home;
        this.approvals = policy.review().approvals();
        this.askRules = policy.rules().stream().filter(r -> r.tier() == Tier.ASK).map(Rule::id).collect(Collectors.toSet());
        this.managedAskRules = policy.rules().stream().filter(r -> r.tier() == Tier.ASK && r.layer() == Layer.MANAGED)
                .map(Rule::id).collect(Collectors.toSet());
    }

    /** The first remembered approval of {@code policy} that covers every ask reason of the verdict. */
    public static Optional<Approval> find(Policy policy, String home, JudgeRequest request, Verdict verdict, Instant now) {
        return new ApprovalMatcher(policy, home).find(request, verdict, now);
    }

    /** Whether an ask rule of the managed policy is among the verdict's reasons: only its own approvals cover it. */
    boolean managedAsk(Verdict verdict) {
        return !managedAskRules.isEmpty() && verdict.reasons().stream().anyMatch(r -> managedAskRules.contains(r.rule()));
    }

    /** The first approval that covers every ask reason of the verdict. */
    Optional<Approval> find(JudgeRequest request, Verdict verdict, Instant now) {
        if (verdict.tier() != Tier.ASK) {
            return Optional.empty();
        }
        for (Approval a : approvals) {
            if (a.activeAt(now) && inProject(a, request) && (a.layer() == Layer.MANAGED || !managedAsk(verdict))
                    && covers(a, request, verdict)) {
                return Optional.of(a);
            }
        }
        return Optional.empty();
    }

    /**
     * Whether an exact approval of {@code line} would cover this verdict (for session memory too): the line the door
     * received, or the same line with its paths inside {@code project} written out in full ({@link #remembered}).
     */
    static boolean exactCovers(String line, JudgeRequest request, Verdict verdict, Path project) {
        if (verdict.tier() != Tier.ASK
                || verdict.reasons().stream().filter(r -> r.tier() == Tier.ASK).anyMatch(r -> NEVER.contains(r.rule()))) {
            return false;
        }
        String approved = line.strip();
        return approved.equals(approvalText(request).strip()) || approved.equals(remembered(request, project));
    }

    /** A line of plain words: no quotes, escapes, expansions, globs, operators or redirections, one space apart. */
    private static final Pattern PLAIN_LINE = Pattern.compile("[A-Za-z0-9_./@%+=:,-]+(?: [A-Za-z0-9_./@%+=:,-]+)*");
    private static final Pattern PLAIN_WORD = Pattern.compile("[A-Za-z0-9_./@%+=:,-]+");

    /**
     * The form in which an "always" answer remembers a line: {@link #approvalText}, where it is plain words, with
     * each argument that names an existing file or folder inside {@code project} by a relative path written as its
     * absolute path, so that {@code vim notes.txt} approved in a project's folder and {@code vim /that/folder/notes.txt}
     * are one command. A word that names nothing on disk, an option, an assignment-like or host-like word, and every
     * line with quotes, variables, globs or operators stay exactly as typed: only a path the shell itself would pass
     * on unchanged is rewritten, and only to the name of the same file.
     *
     * @param project the project's root, or null to keep the line as it is
     */
    public static String remembered(JudgeRequest request, Path project) {
        String line = approvalText(request).strip();
        if (project == null || request.cwd() == null || line.length() > 4096 || !PLAIN_LINE.matches(line)) {
            return line;
        }
        Path cwd = request.cwd().toAbsolutePath().normalize();
        Path root = project.toAbsolutePath().normalize();
        String[] words = line.split(" ");
        StringBuilder out = new StringBuilder(words[0]);
        for (int i = 1; i < words.length; i++) {
            out.append(' ').append(inProject(words[i], cwd, root));
        }
        return out.toString();
    }

    private static String inProject(String word, Path cwd, Path root) {
        if (word.startsWith("-") || word.startsWith("/") || word.contains("=") || word.contains(":") || word.contains("@")) {
            return word;
        }
        try {
            Path p = cwd.resolve(word).normalize();
            if (!p.startsWith(root) || !Files.exists(cwd.resolve(word), LinkOption.NOFOLLOW_LINKS)) {
                return word;
            }
            String full = p.toString();
            return PLAIN_WORD.matches(full) ? full : word;
        } catch (InvalidPathException | SecurityException e) {
            return word;
        }
    }

    /** The project a request's folder belongs to, as a person's "always in this project" takes it. */
    public static Path projectOf(JudgeRequest request) {
        return request.cwd() == null ? null
                : PolicyLoader.projectPolicyPath(request.cwd()).map(f -> f.getParent().getParent()).orElse(null);
    }

    private static final Set<String> SHELLS = Set.of("sh", "bash", "zsh", "dash", "ksh", "mksh", "yash");

    /**
     * The command line a person approves: the text the door received, or, for a program started as
     * {@code /bin/bash -c COMMAND} (how JVM tools run a command line, which the javaagent sees as an argument
     * vector), the COMMAND that shell runs, the line the person saw the tool run.
     */
    public static String approvalText(JudgeRequest request) {
        List<String> argv = request.argv();
        if (argv == null || argv.size() < 3) {
            return request.command();
        }
        String program = argv.getFirst().substring(argv.getFirst().lastIndexOf('/') + 1);
        if (!SHELLS.contains(program)) {
            return request.command();
        }
        // options before -c (bash -l -c, bash -lc, sh -ec); the word after them is the command
        for (int i = 1; i < argv.size() - 1; i++) {
            String w = argv.get(i);
            if (!w.startsWith("-") || w.equals("--") || w.startsWith("--") || w.contains("o")) {
                return request.command();
            }
            if (w.indexOf('c') > 0) {
                // only a command with nothing after it: arguments after it would be its $0, $1, ... and could change it
                return w.indexOf('c') == w.length() - 1 && i + 2 == argv.size() ? argv.get(i + 1) : request.command();
            }
        }
        return request.command();
    }

    private boolean covers(Approval a, JudgeRequest request, Verdict verdict) {
        if (a.exact()) {
            return exactCovers(a.command(), request, verdict, a.project() == null ? projectOf(request) : projectPath(a));
        }
        if (Approval.isGeneric(a.prefix().getFirst())) {
            return false;
        }
        for (Reason r : verdict.reasons()) {
            if (r.tier() != Tier.ASK) {
                continue;
            }
            if (!PREFIX_COVERS.contains(r.rule()) && !askRules.contains(r.rule())) {
                return false;
            }
            Optional<CommandInfo> owner = owner(r, verdict.commands());
            if (owner.isEmpty() || !matches(a, owner.get())) {
                return false;
            }
        }
        return true;
    }

    /** The innermost command whose text contains the reason's span. */
    private static Optional<CommandInfo> owner(Reason r, List<CommandInfo> commands) {
        CommandInfo best = null;
        for (CommandInfo c : commands) {
            if (c.span().start() <= r.span().start() && r.span().end() <= c.span().end()
                    && (best == null || c.depth() > best.depth()
                            || c.depth() == best.depth() && length(c) < length(best))) {
                best = c;
            }
        }
        return Optional.ofNullable(best);
    }

    private static int length(CommandInfo c) {
        return c.span().end() - c.span().start();
    }

    static boolean matches(Approval a, CommandInfo c) {
        List<String> argv = c.argv();
        List<String> prefix = a.prefix();
        if (argv.size() < prefix.size() || !c.resolved().startsWith("/")) {
            return false;
        }
        String program = prefix.getFirst();
        boolean programMatches = program.contains("/") ? program.equals(c.resolved())
                : program.equals(baseName(argv.getFirst()));
        if (!programMatches) {
            return false;
        }
        for (int i = 1; i < prefix.size(); i++) {
            if (!prefix.get(i).equals(argv.get(i))) {
                return false;
            }
        }
        List<String> rest = argv.subList(prefix.size(), argv.size());
        if (a.maxArgs() != null && rest.size() > a.maxArgs()) {
            return false;
        }
        for (String glob : a.argsNone()) {
            Pattern p = Pattern.compile(globRegex(glob));
            if (rest.stream().anyMatch(arg -> p.matches(arg))) {
                return false;
            }
        }
        return true;
    }

    /** An approval's project as a path ({@code ~/} is the gate's home); null when it cannot be told. */
    private Path projectPath(Approval a) {
        String project = a.project();
        if (project.startsWith("~/")) {
            if (home == null) {
                return null;
            }
            project = home + project.substring(1);
        }
        try {
            return Path.of(project);
        } catch (InvalidPathException e) {
            return null;
        }
    }

    private boolean inProject(Approval a, JudgeRequest request) {
        if (a.project() == null) {
            return true;
        }
        String project = a.project();
        if (project.startsWith("~/")) {
            if (home == null) {
                return false;
            }
            project = home + project.substring(1);
        }
        return request.cwd().toAbsolutePath().normalize().startsWith(Path.of(project).toAbsolutePath().normalize());
    }

    static String baseName(String program) {
        int slash = program.lastIndexOf('/');
        return slash < 0 ? program : program.substring(slash + 1);
    }

    /** A glob ({@code *}, {@code ?}, backslash escapes) as an anchored RE2 expression. */
    static String globRegex(String glob) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < glob.length(); i++) {
            char c = glob.charAt(i);
            if (c == '\\' && i + 1 < glob.length()) {
                sb.append(Pattern.quote(String.valueOf(glob.charAt(++i))));
            } else if (c == '*') {
                sb.append("[\\s\\S]*");
            } else if (c == '?') {
                sb.append("[\\s\\S]");
            } else {
                sb.append(Pattern.quote(String.valueOf(c)));
            }
        }
        return sb.toString();
    }
}
