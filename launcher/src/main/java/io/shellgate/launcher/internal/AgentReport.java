package io.shellgate.launcher.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * {@code shellgate doctor}'s report on each agent found here (its program on PATH or its settings folder present):
 * whether shellgate's hook or plugin is in its user and project settings, whether that hook fails open or closed,
 * whether the file changed since {@code shellgate setup} wrote it ({@link SetupRecord}), and whether
 * {@code shellgate wrap} sees the agent's shells.
 */
final class AgentReport {

    /**
     * One agent as doctor knows it.
     *
     * @param id the id setup and hook take
     * @param name how people call it
     * @param programs the names of its program
     * @param shells how it runs a command, for wrap
     * @param folder its settings folder below the home
     * @param variable the variable that moves that folder, or null
     * @param below the folder below the variable's ("" for the variable's own)
     */
    record Known(String id, String name, List<String> programs, String shells, String folder, String variable, String below) {}

    static final List<Known> AGENTS = List.of(
            new Known("claude-code", "Claude Code", List.of("claude"), "yes: a shell per command ($SHELL -c)", ".claude", null, ""),
            new Known("gemini-cli", "Gemini CLI", List.of("gemini"), "yes: bash -c per command", ".gemini", null, ""),
            new Known("codex", "Codex", List.of("codex"), "yes: a shell per command (bash -lc)", ".codex", "CODEX_HOME", ""),
            new Known("qwen-code", "Qwen Code", List.of("qwen"), "yes: bash -c per command", ".qwen", null, ""),
            new Known("copilot-cli", "Copilot CLI", List.of("copilot"),
                    "yes: bash -c per command; text typed into a running shell (write_bash) only through the hook", ".copilot",
                    "COPILOT_HOME", ""),
            new Known("opencode", "OpenCode", List.of("opencode"), "yes: $SHELL -c per command, its batch tool's too",
                    ".config/opencode", "XDG_CONFIG_HOME", "opencode"),
            new Known("kilo", "Kilo", List.of("kilo", "kilocode"), "yes: $SHELL -c per command, as OpenCode",
                    ".config/kilo", "XDG_CONFIG_HOME", "kilo"),
            new Known("pi", "Pi", List.of("pi"), "yes: bash -c per command", ".pi/agent", "PI_CODING_AGENT_DIR", ""));

    /** Kilo's settings by OpenCode's layout, for a setup that has no Kilo entry of its own. */
    private static final SetupCommand.Agent KILO_AS_OPENCODE = new SetupCommand.Agent("opencode", ".config/kilo/plugin/shellgate.js",
            ".kilo/plugin/shellgate.js", "tool.execute.before", "bash|edit|write|apply_patch", true, "", "XDG_CONFIG_HOME:.config");

    /** Where each agent's own settings can be fixed for every project, out of the agent's reach. */
    private static final Map<String, String> MANAGED = Map.of(
            "claude-code", "the managed settings /etc/claude-code/managed-settings.json (root's; the agent cannot edit them)",
            "gemini-cli", "the system settings /etc/gemini-cli/settings.json (root's; they override the others)");

    private static final ObjectMapper JSON = new ObjectMapper();

    private AgentReport() {}

    /** The report's lines, one block per agent found; a line saying none were found otherwise. */
    static List<String> lines(Map<String, String> env, Path cwd) {
        List<String> out = new ArrayList<>();
        String home = env.get("HOME");
        Optional<Path> log = SetupRecord.log(env);
        for (Known k : AGENTS) {
            SetupCommand.Agent a = SetupCommand.AGENTS.get(k.id());
            String layout = "";
            if (a == null) {
                a = KILO_AS_OPENCODE;
                layout = " (its plugin looked for where OpenCode keeps one, under Kilo's name: shellgate setup does not write Kilo's yet)";
            }
            Path user = home == null || !home.startsWith("/") ? null : a.userPath(home);
            Optional<Path> program = onPath(k.programs(), env.get("PATH"));
            Path folder = user == null ? null : folder(k, env, home);
            Path project = a.projectFile() == null ? null : cwd.resolve(a.projectFile());
            if (program.isEmpty() && (folder == null || !Files.isDirectory(folder)) && (project == null || !installed(a, project))) {
                continue;
            }
            out.add(k.name() + " (" + k.id() + "): " + program.map(p -> "program " + p).orElse("no program on PATH")
                    + (folder != null && Files.isDirectory(folder) ? ", settings in " + folder : "") + layout);
            if (user != null) {
                out.addAll(level("user", a, user, log));
            }
            if (project != null && !project.equals(user)) {
                out.addAll(level("project", a, project, log));
                if (installed(a, project)) {
                    out.add("    warning:  " + project + " is in the project: the agent can edit it itself; use "
                            + (MANAGED.containsKey(k.id()) ? MANAGED.get(k.id()) + " or " : "") + "your own settings"
                            + " (shellgate setup " + k.id() + ")");
                }
            }
            out.add("    wrap:     " + k.shells());
        }
        if (out.isEmpty()) {
            out.add("no agent found (none of their programs on PATH, none of their settings folders)");
        }
        return out;
    }

    private static List<String> level(String level, SetupCommand.Agent a, Path file, Optional<Path> log) {
        List<String> out = new ArrayList<>();
        String label = "    " + (level + ":").concat(" ".repeat(Math.max(1, 10 - level.length() - 1)));
        if (!installed(a, file)) {
            out.add(label + "no shellgate " + (a.plugin() ? "plugin" : "hook") + " in " + file);
            return out;
        }
        out.add(label + "shellgate's " + (a.plugin() ? "plugin" : "hook") + " in " + file);
        out.add("      fails:  " + failMode(a, file));
        out.add("      since:  " + changed(file, log));
        return out;
    }

    /** Whether shellgate's entry (or plugin) is in {@code file}. */
    static boolean installed(SetupCommand.Agent a, Path file) {
        try {
            if (!Files.isRegularFile(file)) {
                return false;
            }
            if (a.plugin()) {
                return Files.readString(file, StandardCharsets.UTF_8).startsWith(PluginFile.HEADER);
            }
            return entry(a, file).isPresent();
        } catch (IOException | RuntimeException e) {
            return false;
        }
    }

    /** shellgate's hook in the agent's main event, as the settings file holds it. */
    private static Optional<JsonNode> entry(SetupCommand.Agent a, Path file) throws IOException {
        JsonNode settings = JSON.readTree(Files.readString(file, StandardCharsets.UTF_8));
        if (!(settings instanceof ObjectNode o)) {
            return Optional.empty();
        }
        for (JsonNode g : SetupCommand.ourEntries(o, a).path(a.event())) {
            if (a.flat()) {
                return Optional.of(g);
            }
            for (JsonNode h : g.path("hooks")) {
                if (SetupCommand.ours(h, a.name())) {
                    return Optional.of(h);
                }
            }
        }
        return Optional.empty();
    }

    /** Whether a call goes on (open) or is refused (closed) when the hook cannot answer. */
    static String failMode(SetupCommand.Agent a, Path file) {
        if (a.plugin()) {
            return "closed: the " + (a.name().equals("pi") ? "extension" : "plugin")
                    + " refuses a call when shellgate gives no answer";
        }
        JsonNode hook;
        try {
            hook = entry(a, file).orElseThrow();
        } catch (IOException | RuntimeException e) {
            return "unknown: " + file + " cannot be read";
        }
        return switch (a.name()) {
            case "claude-code" -> "block".equals(hook.path("onFailure").asText(null))
                    ? "closed: a hook that cannot run blocks the call (\"onFailure\": \"block\")"
                    : "OPEN: without \"onFailure\": \"block\" Claude Code lets the call through when the hook cannot run"
                            + " (shellgate setup claude-code writes it)";
            case "gemini-cli" -> timeout(hook, 60_000, 45_000, "Gemini CLI");
            case "qwen-code" -> "open on a time-out or an empty answer ("
                    + (hook.has("timeout") ? hook.path("timeout").asText() + " ms" : "Qwen Code's default time-out")
                    + "): shellgate answers well within it; shellgate wrap -- qwen gates its shells whatever the hook does";
            case "codex" -> "open on a time-out (600 s by default; shellgate answers within 540 s); Codex runs the hook"
                    + " only once you trust it in its review";
            case "copilot-cli" -> "OPEN on a time-out (" + hook.path("timeoutSec").asInt(hook.path("timeout").asInt(30))
                    + " s): Copilot CLI lets the call through (a hook that fails or exits 2 refuses it); shellgate wrap --"
                    + " copilot gates its shells whatever the hook does";
            default -> "unknown for " + a.name();
        };
    }

    private static String timeout(JsonNode hook, int defaultMs, int budgetMs, String agent) {
        int ms = hook.path("timeout").asInt(defaultMs);
        String t = ms + " ms" + (hook.has("timeout") ? "" : " by default");
        return ms > budgetMs ? "closed within its time-out: " + agent + " waits " + t + ", shellgate answers or refuses within "
                + budgetMs / 1000 + " s"
                : "OPEN: " + agent + " lets the call through after " + t + ", before shellgate's " + budgetMs / 1000
                        + " s are up; raise the hook's \"timeout\" above " + budgetMs + " (shellgate setup leaves it at the default)";
    }

    /** Whether the file is as setup left it, from the last record of it. */
    static String changed(Path file, Optional<Path> log) {
        if (log.isEmpty()) {
            return "not known (no state directory to keep setup's records in)";
        }
        try {
            Optional<SetupRecord> r = SetupRecord.last(log.get(), file);
            if (r.isEmpty() || !r.get().action().equals("setup")) {
                return "no record of shellgate setup writing it (written by hand?): run shellgate setup to record it";
            }
            String now = SetupRecord.digest(file);
            return now.equals(r.get().sha256()) ? "unchanged since shellgate setup wrote it at " + r.get().time()
                    : "CHANGED since shellgate setup wrote it at " + r.get().time()
                            + (r.get().backup() == null ? "" : " (the file before that: " + r.get().backup() + ")");
        } catch (IOException | RuntimeException e) {
            return "not known: " + e.getMessage();
        }
    }

    /** The agent's own folder: {@code $VARIABLE/below} when the variable names an absolute path, else below the home. */
    private static Path folder(Known k, Map<String, String> env, String home) {
        String moved = k.variable() == null ? null : env.get(k.variable());
        if (moved != null && moved.startsWith("/")) {
            return Path.of(moved).resolve(k.below());
        }
        return Path.of(home).resolve(k.folder());
    }

    private static Optional<Path> onPath(List<String> names, String path) {
        if (path == null) {
            return Optional.empty();
        }
        for (String d : path.split(":")) {
            if (!d.startsWith("/")) {
                continue;
            }
            for (String n : names) {
                Path p = Path.of(d, n);
                if (Files.isRegularFile(p) && Files.isExecutable(p)) {
                    return Optional.of(p);
                }
            }
        }
        return Optional.empty();
    }
}
