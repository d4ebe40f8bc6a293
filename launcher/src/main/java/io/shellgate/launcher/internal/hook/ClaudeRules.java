package io.shellgate.launcher.internal.hook;

import com.fasterxml.jackson.databind.JsonNode;
import io.shellgate.judge.JudgeRequest;
import io.shellgate.judge.Reason;
import io.shellgate.judge.Verdict;
import io.shellgate.reviewer.AgentRules;
import io.shellgate.rules.Tier;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Claude Code's own {@code Bash(...)} allow rules, which a shellgate ask may be left to: when one covers the whole
 * command, the hook gives no decision and Claude Code decides by its own rules (its dialog, with "Yes, and don't ask
 * again", where they do not let the command run). Only in the permission modes where Claude Code asks about what its
 * rules do not allow (default, plan, dontAsk): in acceptEdits, auto and bypassPermissions a command its rules do not
 * match might run unasked, so there the hook asks. Blanket rules ({@code Bash}, {@code Bash(*)}, {@code Bash(:*)})
 * cover nothing; a rule with a wildcard covers only a line without shell operators, substitutions or redirections.
 *
 * <p>Where the policy opts in ({@code [review] agent-dialog}), an ask no rule covers may get no decision as well, so
 * that Claude Code shows its own dialog, with "Yes, and don't ask again": only in default and plan mode, with no
 * blanket rule and no sandbox auto-allow in any of its settings files (and all of them readable), for one simple
 * command that Claude Code would not run unasked as read-only ({@link ClaudeReadOnly}), and never for a line
 * shellgate asks about because it reads a secret.
 */
public final class ClaudeRules implements AgentRules {

    /** The permission modes in which Claude Code asks its user about a command none of its rules allows. */
    private static final Set<String> ASKING_MODES = Set.of("default", "plan", "dontAsk");

    /** The permission modes in which Claude Code shows its own dialog for a command none of its rules allows. */
    private static final Set<String> DIALOG_MODES = Set.of("default", "plan");

    /** The judge's reasons for asking about a line that reads a secret, which Claude Code may think read-only. */
    private static final Set<String> SECRET_READS = Set.of("sensitive-path", "secret-variable", "prints-environment");

    /** Characters that make a line more than one simple command (or one that reads and writes files). */
    private static final Pattern OPERATORS = Pattern.compile("[;&|<>$`()\\\\\\n\\r]");

    /** One allow rule, as written, and the file it is in. */
    public record Rule(String rule, Path file) {
        @Override
        public String toString() {
            return rule + " in " + file;
        }
    }

    private final List<Rule> rules;
    private final String mode;
    /** Why the settings files may allow more than {@link #rules} say (one unreadable, a sandbox auto-allow), or null. */
    private final String doubt;
    private volatile Rule found;
    private volatile boolean dialog;

    private ClaudeRules(List<Rule> rules, String mode, String doubt) {
        this.rules = rules;
        this.mode = mode;
        this.doubt = doubt;
    }

    /**
     * Claude Code's allow rules for a hook call, or null when its permission mode is one where leaving the ask to
     * them could run a command unasked (or the input names no mode).
     */
    static ClaudeRules forCall(JsonNode hook, Map<String, String> env, Path cwd) {
        if (!ASKING_MODES.contains(hook.path("permission_mode").asText(""))) {
            return null;
        }
        List<Path> files = settingsFiles(env, cwd);
        return new ClaudeRules(read(files), hook.path("permission_mode").asText(), doubt(files));
    }

    /**
     * Why Claude Code's settings files may let more run than their {@code Bash} allow rules say: one that exists but
     * cannot be read here (Claude Code may read it), or a sandbox that may run every command unasked
     * ({@code autoAllowBashIfSandboxed}); null when there is no such doubt.
     */
    private static String doubt(List<Path> files) {
        for (Path file : files) {
            try {
                if (!Files.exists(file)) {
                    continue;
                }
                if (!Files.isRegularFile(file) || Files.size(file) > (1 << 20)) {
                    return file + " cannot be read";
                }
                JsonNode root = HookAgent.JSON.readTree(file.toFile());
                if (root != null && !root.isObject()) {
                    return file + " is not a JSON object";
                }
                if (root != null && root.path("sandbox").path("enabled").asBoolean(false)) {
                    return file + " enables Claude Code's sandbox, which may run commands unasked";
                }
            } catch (IOException | RuntimeException e) {
                return file + " cannot be read";
            }
        }
        return null;
    }

    /** The settings files Claude Code takes permissions from: managed, the user's, the project's shared and local. */
    public static List<Path> settingsFiles(Map<String, String> env, Path cwd) {
        List<Path> files = new ArrayList<>();
        files.add(Path.of("/etc/claude-code/managed-settings.json"));
        files.add(Path.of("/Library/Application Support/ClaudeCode/managed-settings.json"));
        String config = env.getOrDefault("CLAUDE_CONFIG_DIR", "");
        String home = env.getOrDefault("HOME", "");
        if (config.startsWith("/")) {
            files.add(Path.of(config, "settings.json"));
        } else if (home.startsWith("/")) {
            files.add(Path.of(home, ".claude", "settings.json"));
        }
        String project = env.getOrDefault("CLAUDE_PROJECT_DIR", "");
        Path root = project.startsWith("/") ? Path.of(project) : cwd;
        files.add(root.resolve(".claude/settings.json"));
        files.add(root.resolve(".claude/settings.local.json"));
        return files;
    }

    /** The {@code Bash(...)} allow rules in these files, blanket ones included; a file that cannot be read gives none. */
    public static List<Rule> read(List<Path> files) {
        List<Rule> out = new ArrayList<>();
        for (Path file : files) {
            JsonNode root;
            try {
                if (!Files.isRegularFile(file) || Files.size(file) > (1 << 20)) {
                    continue;
                }
                root = HookAgent.JSON.readTree(file.toFile());
            } catch (IOException | RuntimeException e) {
                continue;
            }
            for (JsonNode rule : root == null ? HookAgent.JSON.createArrayNode() : root.path("permissions").path("allow")) {
                if (rule.isTextual() && (rule.asText().equals("Bash") || rule.asText().startsWith("Bash("))) {
                    out.add(new Rule(rule.asText(), file.toAbsolutePath().normalize()));
                }
            }
        }
        return out;
    }

    @Override
    public String covering(JudgeRequest request) {
        String command = request.command();
        if (command == null) {
            return null;
        }
        for (Rule r : rules) {
            if (covers(r.rule(), command)) {
                found = r;
                return r.toString();
            }
        }
        return null;
    }

    @Override
    public String ownDialog(JudgeRequest request, Verdict verdict) {
        if (!DIALOG_MODES.contains(mode) || doubt != null || request.command() == null
                || OPERATORS.matcher(request.command().strip()).find()
                || ClaudeReadOnly.mayRunUnasked(request.command())) {
            return null;
        }
        for (Rule r : rules) {
            if (blanket(r.rule())) {
                return null;
            }
        }
        for (Reason reason : verdict.reasons()) {
            if (reason.tier() != Tier.ALLOW && SECRET_READS.contains(reason.rule())) {
                return null;
            }
        }
        dialog = true;
        return "which may offer \"Yes, and don't ask again\"";
    }

    /** The rule an ask was left to, once {@link #covering} found one; else null. */
    Rule found() {
        return found;
    }

    /** Whether an ask was left to Claude Code's own dialog, once {@link #ownDialog} said so. */
    boolean leftToDialog() {
        return dialog;
    }

    /** Whether a rule is a blanket one, which lets every command run and so speaks for none in particular. */
    public static boolean blanket(String rule) {
        String pattern = pattern(rule);
        if (pattern == null) {
            return true;
        }
        String words = pattern.strip();
        if (words.endsWith(":*")) {
            words = words.substring(0, words.length() - 2).strip();
        }
        // the program's name must be written out: a rule that starts with a wildcard speaks for any program
        return words.isEmpty() || !Character.isLetterOrDigit(words.charAt(0)) && "./~_-".indexOf(words.charAt(0)) < 0
                || words.split("\\s+")[0].contains("*");
    }

    /** Whether the allow rule {@code rule} ({@code Bash(...)}) covers the whole of {@code command}. */
    static boolean covers(String rule, String command) {
        if (blanket(rule)) {
            return false;
        }
        String pattern = pattern(rule).strip();
        String line = command.strip();
        if (!pattern.contains("*")) {
            return line.equals(pattern);
        }
        if (OPERATORS.matcher(line).find()) {
            return false;
        }
        if (pattern.endsWith(":*")) {
            // the older prefix form: the words before it, alone or followed by more
            String prefix = pattern.substring(0, pattern.length() - 2).strip();
            return !prefix.contains("*") && (line.equals(prefix) || line.startsWith(prefix + " "));
        }
        if (pattern.endsWith(" *") && line.equals(pattern.substring(0, pattern.length() - 2).strip())) {
            return true;
        }
        StringBuilder regex = new StringBuilder();
        for (String part : pattern.split("\\*", -1)) {
            if (!regex.isEmpty()) {
                regex.append(".*");
            }
            regex.append(Pattern.quote(part));
        }
        return Pattern.compile(regex.toString(), Pattern.DOTALL).matcher(line).matches();
    }

    private static String pattern(String rule) {
        if (rule.equals("Bash")) {
            return null;
        }
        return rule.startsWith("Bash(") && rule.endsWith(")") ? rule.substring(5, rule.length() - 1) : null;
    }
}
