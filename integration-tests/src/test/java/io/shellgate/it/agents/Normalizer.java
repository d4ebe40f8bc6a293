package io.shellgate.it.agents;

import java.nio.file.Path;
import java.util.List;
import java.util.TreeSet;
import java.util.regex.Pattern;

/**
 * Replaces what differs between two runs of the same agent (its folders, ids, times, random file
 * names, ports) with placeholders, so that what an agent sends and starts can be kept as golden files.
 */
record Normalizer(Path root, Path install) {

    private record Rule(Pattern pattern, String replacement) {}

    private static final List<Rule> RULES = List.of(
            // Copilot CLI: its login-shell probe's marker (two random hex parts), before the numbers
            rule("__copilot_login_env_snapshot_[0-9a-f]+_[0-9a-f]+__", "__copilot_login_env_snapshot_\\$N_\\$R__"),
            // Gemini CLI's chat file, before the times: its id may start with digits that read as seconds
            rule("session-\\d{4}-\\d\\d-\\d\\dT\\d\\d-\\d\\d-[0-9a-f]{8}\\.jsonl", "session-\\$TIME-\\$R.jsonl"),
            rule("[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}", "\\$UUID"),
            rule("\\d{4}-\\d\\d-\\d\\dT\\d\\d[:-]\\d\\d([:-]\\d\\d(\\.\\d+)?)?Z?", "\\$TIME"),
            rule("\\d{4}/\\d\\d/\\d\\d", "\\$DATE"),
            rule("\\d{10,}", "\\$N"),
            rule("http://127\\.0\\.0\\.1:\\d+", "http://127.0.0.1:\\$PORT"),
            // Claude Code: its shell snapshot, the file its command writes the new cwd to, its heredoc marker
            rule("snapshot-(\\w+)-\\$N-[a-z0-9]{6}", "snapshot-$1-\\$N-\\$R"),
            rule("/claude-[0-9a-f]{4}-cwd", "/claude-\\$R-cwd"),
            rule("CLAUDE_CODE_END_[a-z0-9]+", "CLAUDE_CODE_END_\\$R"),
            // Gemini CLI: the folder of its background-pids file
            rule("gemini-shell-[A-Za-z0-9]{6}", "gemini-shell-\\$R"),
            // Qwen Code: its tool-use ids
            rule("toolu_\\$N_[a-z0-9]+", "toolu_\\$N_\\$R"),
            // OpenCode: its session and message ids
            rule("(ses|msg)_[A-Za-z0-9]{26}", "$1_\\$R"));

    private static Rule rule(String regex, String replacement) {
        return new Rule(Pattern.compile(regex), replacement);
    }

    String apply(String text) {
        // Claude Code and Qwen Code name a project's folder after its path, every other character a '-'
        String mangled = root.toString().replaceAll("[^A-Za-z0-9]", "-");
        String out = text.replace(install.toString(), "$INSTALL").replace(root.toString(), "$ROOT")
                .replace(mangled, "$ROOT_AS_NAME");
        for (Rule rule : RULES) {
            out = rule.pattern().matcher(out).replaceAll(rule.replacement());
        }
        return out;
    }

    /**
     * One exec as its path, its numbered arguments and the names of its environment variables
     * (their values hold pids, tokens and the user's name).
     */
    String render(Exec exec) {
        StringBuilder text = new StringBuilder("=== exec ").append(apply(exec.path())).append('\n');
        for (int i = 0; i < exec.argv().size(); i++) {
            String arg = exec.argv().get(i);
            // pids and descriptor numbers handed on as arguments (Codex's process-setup helper)
            String shown = arg.matches("\\d+") ? "$NUM" : apply(arg);
            text.append("argv[").append(i).append("] = ").append(shown).append('\n');
        }
        text.append("env ").append(String.join(" ", new TreeSet<>(exec.env().keySet()))).append('\n');
        return text.toString();
    }
}
