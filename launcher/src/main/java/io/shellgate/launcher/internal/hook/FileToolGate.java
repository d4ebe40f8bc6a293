package io.shellgate.launcher.internal.hook;

import com.fasterxml.jackson.databind.JsonNode;
import io.shellgate.client.Links;
import io.shellgate.judge.Reason;
import io.shellgate.judge.Span;
import io.shellgate.judge.Verdict;
import io.shellgate.rules.Places;
import io.shellgate.rules.Tier;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Judges an agent's file tools, which start no process and so never reach the shell judge: a write
 * to shellgate's own files (policies, approvals, audit log, run directory, cache) is refused; a
 * write to a file shellgate reads to prove that a command is harmless (git's configuration and
 * hooks, shell start-up files, the agents' shell snapshots and hook settings) asks; any other
 * write is the agent's own business. Each is decided and logged as a command line would be
 * ({@link HookGate}): an ask reaches whoever watches, and every decision is in the audit log.
 */
public final class FileToolGate {

    /** File names whose contents decide what later commands run, in any directory. */
    private static final Set<String> PROOF_NAMES = Set.of(".gitmodules", ".gitattributes", ".gitconfig", ".mavenrc",
            ".bashrc", ".bash_profile", ".bash_login", ".bash_logout", ".profile", ".zshrc", ".zshenv", ".zprofile",
            ".zlogin", ".zlogout", ".inputrc", ".envrc", ".lesskey");

    /** Directories, anywhere, whose files do the same: git's internals and the agents' settings (hooks). */
    private static final Set<String> PROOF_DIRS = Set.of(".git", ".claude", ".gemini", ".codex", ".qwen", ".copilot",
            ".opencode", ".kilo", ".kilocode", ".pi");

    /** Directories below the home whose files do the same (git's, the agents' snapshots and hook settings). */
    private static final List<String> PROOF_HOME_DIRS = List.of(".config/git", ".claude", ".codex", ".gemini", ".qwen",
            ".copilot", ".config/opencode", ".config/kilo", ".kilo", ".kilocode", ".pi");

    private FileToolGate() {}

    /** What shellgate says of a file tool's write. */
    enum Kind { GATE, PROOF, OTHER }

    /** What a file-tool call is: input the gate cannot read (refused as it is), or a write judged like a command. */
    sealed interface Call {
        record Unreadable(HookAnswer refusal) implements Call {}

        /**
         * @param line the write as one line for the audit log, approvals and a person ({@code Write /path/file})
         * @param verdict deny for the gate's files, ask for the files an allow rests on, allow for the rest
         */
        record Write(String line, Verdict verdict) implements Call {}
    }

    /**
     * What a file-tool call is, or empty when the input is no file tool of {@code agent} (then it is the shell
     * judge's, or nobody's).
     *
     * @param env the hook's environment (the agent's, and the gate's)
     * @param cwd where a relative path is resolved
     */
    static Optional<Call> judge(HookAgent agent, JsonNode input, Map<String, String> env, Path cwd) {
        Optional<List<String>> targets;
        try {
            targets = FileTargets.of(agent, input);
        } catch (IllegalArgumentException e) {
            return Optional.of(new Call.Unreadable(agent.answer(HookAgent.Outcome.DENY,
                    "shellgate: refused (file-tool): " + e.getMessage())));
        }
        if (targets.isEmpty()) {
            return Optional.empty();
        }
        String tool = input.path("tool_name").asText();
        Kind worst = Kind.OTHER;
        String named = targets.get().getFirst();
        for (String t : targets.get()) {
            Kind k = kind(t, env, cwd);
            if (k.compareTo(worst) < 0) {
                worst = k;
                named = t;
            }
        }
        StringBuilder line = new StringBuilder(tool.isEmpty() ? "write" : tool);
        for (String t : targets.get()) {
            line.append(' ').append(HookGate.shellWord(t));
        }
        Span all = new Span(0, line.length());
        Reason reason = switch (worst) {
            case GATE -> new Reason("gate-file", Tier.DENY, tool + " would write " + named + ", one of shellgate's own files"
                    + " (policy, approvals, audit log, run directory); an agent never changes them. " + byAPerson(), all);
            case PROOF -> new Reason("proof-file", Tier.ASK, tool + " would write " + named + ", which shellgate reads to"
                    + " decide that commands are harmless (git's configuration and hooks, shell start-up files, an agent's"
                    + " settings)", all);
            case OTHER -> new Reason("file-tool", Tier.ALLOW, tool + " writes " + String.join(", ", targets.get()), all);
        };
        return Optional.of(new Call.Write(line.toString(), new Verdict(reason.tier(), List.of(reason), List.of())));
    }

    /** What a person does instead, never naming a file the agent could write. */
    static String byAPerson() {
        return "A person can make this change, or answer shellgate's questions with shellgate approvals --watch,"
                + " from a terminal of their own outside the agent";
    }

    /** What a write to {@code text} (as the agent wrote it, relative to {@code cwd}) is. */
    static Kind kind(String text, Map<String, String> env, Path cwd) {
        Path absolute;
        try {
            Path p = Path.of(text);
            absolute = p.isAbsolute() ? p : cwd.resolve(p);
        } catch (InvalidPathException e) {
            return Kind.GATE;
        }
        Kind worst = Kind.OTHER;
        for (Path p : forms(absolute)) {
            Kind k = classify(p, env);
            worst = k.compareTo(worst) < 0 ? k : worst;
        }
        return worst;
    }

    /** The path as written and as the write would land: every link on the way followed, dangling ones too. */
    private static Set<Path> forms(Path absolute) {
        Set<Path> out = new LinkedHashSet<>();
        out.add(absolute.normalize());
        // ".." after a link goes up from where the link points, not from the link: followed as written
        Path landing = Links.landing(absolute);
        if (landing != null) {
            out.add(landing);
        }
        return out;
    }

    private static Kind classify(Path p, Map<String, String> env) {
        List<Path> gate = new ArrayList<>(Places.gateDirectories(env));
        gate.addAll(Places.gateDirectories(System.getenv()));
        for (Path g : gate) {
            if (startsWith(p, g)) {
                return Kind.GATE;
            }
        }
        for (Path seg : p) {
            if (seg.toString().equalsIgnoreCase(Places.PROJECT_DIRECTORY)) {
                return Kind.GATE;
            }
        }
        for (Path seg : p) {
            // git's internals, and the agents' settings in any project: their hooks run commands no gate sees
            if (PROOF_DIRS.contains(seg.toString().toLowerCase(java.util.Locale.ROOT))) {
                return Kind.PROOF;
            }
        }
        String lower = p.toString().toLowerCase(java.util.Locale.ROOT);
        if (lower.contains("/.github/hooks/") || lower.endsWith("/.github/hooks")) {
            // Copilot CLI's project hooks: the commands in them run with no gate
            return Kind.PROOF;
        }
        Path name = p.getFileName();
        if (name != null && PROOF_NAMES.contains(name.toString().toLowerCase(java.util.Locale.ROOT))) {
            return Kind.PROOF;
        }
        String home = env.get("HOME");
        List<Path> homes = new ArrayList<>();
        if (home != null && home.startsWith("/")) {
            homes.add(Path.of(home));
        }
        homes.add(Path.of(System.getProperty("user.home")));
        for (Path h : homes) {
            for (String d : PROOF_HOME_DIRS) {
                if (startsWith(p, h.resolve(d))) {
                    return Kind.PROOF;
                }
            }
        }
        for (String v : List.of("XDG_CONFIG_HOME", "CODEX_HOME", "CLAUDE_CONFIG_DIR", "GEMINI_CLI_HOME", "COPILOT_HOME",
                "OPENCODE_CONFIG_DIR", "KILO_CONFIG_DIR", "PI_CODING_AGENT_DIR")) {
            String dir = env.get(v);
            if (dir != null && dir.startsWith("/") && (v.equals("XDG_CONFIG_HOME")
                    ? startsWith(p, Path.of(dir, "git")) || startsWith(p, Path.of(dir, "opencode"))
                            || startsWith(p, Path.of(dir, "kilo"))
                    : startsWith(p, Path.of(dir)))) {
                return Kind.PROOF;
            }
        }
        return Kind.OTHER;
    }

    /** Whether {@code p} is {@code dir} or below it, without regard to case (macOS opens POLICY.TOML for policy.toml). */
    private static boolean startsWith(Path p, Path dir) {
        String a = p.toString();
        String d = dir.normalize().toString();
        return a.equalsIgnoreCase(d) || a.length() > d.length() && a.charAt(d.length()) == '/'
                && a.regionMatches(true, 0, d, 0, d.length());
    }
}
