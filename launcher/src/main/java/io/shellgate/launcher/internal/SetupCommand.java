package io.shellgate.launcher.internal;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.shellgate.launcher.internal.cli.ExitCode;
import io.shellgate.launcher.internal.hook.HookGate;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code shellgate setup AGENT}: writes the agent's hook settings, merged into what is there, never clobbered. */
@Command(name = "setup", mixinStandardHelpOptions = true,
        description = {"Installs shellgate's hook in an agent's own settings: claude-code, gemini-cli, codex, qwen-code,",
            "copilot-cli, opencode, kilo or pi (for these three, a plugin file of shellgate's in the agent's plugin folder).",
            "The hook entry (shellgate-hook beside this launcher, the agent's shell and file tools as its matcher, and the",
            "agent's fail-closed switch where it has one) is merged into the settings file: other settings and hooks stay,",
            "an earlier shellgate entry is replaced, and the file as it was is kept beside it as FILE.shellgate-backup-TIME.",
            "--project writes the project's settings instead of yours; the agent itself can edit those, so the user's",
            "are the default. Each setup and removal is recorded in shellgate's state directory (setup.jsonl: the file,",
            "the entry, the file's SHA-256 and the backup), which shellgate doctor compares the file with."},
        footer = {"", "Exit codes: 0 written (or nothing to change), 2 usage error, 4 the settings file cannot be read or written."})
public final class SetupCommand implements Callable<Integer> {

    /**
     * One agent's hook settings: where they live and the entry shellgate puts there. {@code home}
     * ({@code VARIABLE:FOLDER}) names a variable that stands for a folder of {@code userFile} below the home.
     */
    record Agent(String name, String userFile, String projectFile, String event, String matcher, boolean failClosed,
            String note, String home) {

        Agent(String name, String userFile, String projectFile, String event, String matcher, boolean failClosed,
                String note) {
            this(name, userFile, projectFile, event, matcher, failClosed, note, null);
        }

        /**
         * The entry after a tool ran, where the agent has one and the audit log needs it: Claude Code's PostToolUse of
         * Bash, which tells that a command handed to its own dialog ran. Null for the other agents.
         */
        Agent after() {
            return name.equals("claude-code") ? new Agent(name, userFile, projectFile, "PostToolUse", "Bash", false, note, home)
                    : null;
        }

        /** Whether the gate is a plugin file of shellgate's (OpenCode) rather than an entry in a settings file. */
        boolean plugin() {
            return name.equals("opencode") || name.equals("kilo") || name.equals("pi");
        }

        /** Copilot CLI's hooks are a flat list of commands ({@code "bash": ...}), not Claude Code's matcher groups. */
        boolean flat() {
            return name.equals("copilot-cli");
        }

        Path userPath(String userHome) {
            if (home == null) {
                return Path.of(userHome).resolve(userFile);
            }
            // VARIABLE:FOLDER, the folder below the home that the variable names instead
            String variable = home.substring(0, home.indexOf(':'));
            Path folder = Path.of(home.substring(home.indexOf(':') + 1));
            String moved = System.getenv(variable);
            if (moved != null && moved.startsWith("/")) {
                return Path.of(moved).resolve(folder.relativize(Path.of(userFile)));
            }
            return Path.of(userHome).resolve(userFile);
        }
    }

    /** Copilot CLI's timeout for shellgate's hook: it lets the call through when a hook runs longer. */
    static final int COPILOT_TIMEOUT_SECONDS = 60;

    static final Map<String, Agent> AGENTS = Map.of(
            "pi", new Agent("pi", ".pi/agent/extensions/shellgate.js", ".pi/extensions/shellgate.js", "tool_call",
                    "bash|edit|write", true,
                    "Pi loads the extension at its next start; it blocks a call when shellgate gives no answer, and shows"
                            + " an ask as its own confirmation (pi -p has none: a refusal).", "PI_CODING_AGENT_DIR:.pi/agent"),
            "opencode", new Agent("opencode", ".config/opencode/plugin/shellgate.js", ".opencode/plugin/shellgate.js",
                    "tool.execute.before", "bash|edit|write|apply_patch", true,
                    "OpenCode loads the plugin at its next start; it refuses a call when shellgate gives no answer."
                            + " An ask is a refusal that says how a person approves (a plugin cannot show OpenCode's prompt).",
                    "XDG_CONFIG_HOME:.config"),
            "kilo", new Agent("kilo", ".config/kilo/plugin/shellgate.js", ".kilo/plugin/shellgate.js",
                    "tool.execute.before", "bash|background_process|edit|write|apply_patch", true,
                    "Kilo loads the plugin (OpenCode's, which it shares) at its next start; it refuses a call when"
                            + " shellgate gives no answer. An ask is a refusal that says how a person approves.",
                    "XDG_CONFIG_HOME:.config"),
            "copilot-cli", new Agent("copilot-cli", ".copilot/hooks/shellgate.json", ".github/hooks/shellgate.json",
                    "preToolUse", "bash|write_bash|powershell|write_powershell|create|edit", false,
                    "Copilot CLI lets a call through when its hook times out (" + COPILOT_TIMEOUT_SECONDS + " s here; shellgate"
                            + " answers well within it) and refuses it when the hook fails; shellgate wrap -- copilot"
                            + " gates its shells whatever the hook does.", "COPILOT_HOME:.copilot"),
            "claude-code", new Agent("claude-code", ".claude/settings.json", ".claude/settings.json", "PreToolUse",
                    "Bash|Write|Edit|MultiEdit|NotebookEdit", true,
                    "Claude Code blocks a call when the hook cannot run (\"onFailure\": \"block\")."),
            "qwen-code", new Agent("qwen-code", ".qwen/settings.json", ".qwen/settings.json", "PreToolUse",
                    "run_shell_command|write_file|edit|replace", false,
                    "Qwen Code lets a call through when the hook prints nothing or times out; shellgate answers well within"
                            + " its limit."),
            "gemini-cli", new Agent("gemini-cli", ".gemini/settings.json", ".gemini/settings.json", "BeforeTool",
                    "run_shell_command|write_file|replace", false,
                    "Gemini CLI lets a call through when the hook does not answer in its timeout (60000 ms by default):"
                            + " keep it at that or above; shellgate answers within 45 s."),
            "codex", new Agent("codex", ".codex/hooks.json", null, "PreToolUse", "^(Bash|apply_patch)$", false,
                    "Codex runs a hook only once you trust it in its review (it asks at its next start)."));

    @Parameters(paramLabel = "AGENT", description = "claude-code, gemini-cli, codex, qwen-code, copilot-cli, opencode, kilo or pi")
    String agent;

    @Option(names = "--project", description = "Write the project's settings (in the current directory) instead of yours.")
    boolean project;

    @Option(names = "--dry-run", description = "Print the settings file as it would be written; change nothing.")
    boolean dryRun;

    @Option(names = "--remove", description = "Take shellgate's hook entry out of the settings again.")
    boolean remove;

    @Spec
    CommandSpec spec;

    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        Agent a = AGENTS.get(agent);
        if (a == null) {
            err.println("shellgate setup: unknown agent '" + agent + "'; use claude-code, gemini-cli, codex, qwen-code,"
                    + " copilot-cli, opencode, kilo or pi");
            return ExitCode.USAGE.code();
        }
        if (project && a.projectFile() == null) {
            err.println("shellgate setup: " + agent + " reads its hooks only from your own settings (~/" + a.userFile() + ")");
            return ExitCode.USAGE.code();
        }
        String home = System.getenv("HOME");
        if (!project && (home == null || !home.startsWith("/"))) {
            err.println("shellgate setup: HOME is not set to an absolute path, so your settings cannot be found");
            return ExitCode.USAGE.code();
        }
        Path file = project ? Path.of("").toAbsolutePath().resolve(a.projectFile()) : a.userPath(home);
        String command = hookCommand(a.name());
        if (a.plugin()) {
            try {
                return PluginFile.setup(file, a.name(), hookArgv(a.name()), remove, dryRun, project, a.note(), out, err);
            } catch (IOException e) {
                err.println("shellgate setup: " + file + ": " + e.getMessage());
                return ExitCode.ERROR.code();
            }
        }
        try {
            ObjectNode settings = read(file);
            boolean changed = remove ? removeEntry(settings, a) : putEntry(settings, a, command);
            Agent after = a.after();
            if (after != null && remove) {
                changed |= settings.path("hooks").has(after.event()) && removeEntry(settings, after);
                if (settings.path("hooks").path(after.event()).isEmpty()) {
                    ((ObjectNode) settings.get("hooks")).remove(after.event());
                }
            } else if (after != null) {
                changed |= putEntry(settings, after, command);
            }
            String text = JSON.writeValueAsString(settings) + "\n";
            if (dryRun) {
                out.print(text);
                out.flush();
                return ExitCode.ALLOW.code();
            }
            if (!changed) {
                out.println(remove ? "shellgate setup: no shellgate hook in " + file + "; nothing to remove"
                        : "shellgate setup: " + file + " already runs " + command + "; nothing to change");
                if (!remove) {
                    record(a.name(), "setup", file, ourEntries(settings, a), null, out, err);
                }
                return ExitCode.ALLOW.code();
            }
            Path backup = write(file, text);
            out.println((remove ? "removed shellgate's hook from " : "shellgate's hook is in ") + file
                    + (backup == null ? "" : " (the file as it was: " + backup + ")"));
            if (!remove) {
                out.println("  runs:     " + command);
                out.println("  on:       " + a.event() + " of " + a.matcher());
                if (a.after() != null) {
                    out.println("  and:      " + a.after().event() + " of " + a.after().matcher()
                            + " (the audit log learns that a command asked in the agent's dialog ran)");
                }
                out.println("  note:     " + a.note());
                if (project) {
                    out.println("  warning:  the agent can edit its project settings itself; your own settings (without"
                            + " --project) are out of the project's reach");
                }
            }
            record(a.name(), remove ? "remove" : "setup", file, remove ? null : ourEntries(settings, a), backup, out, err);
            return ExitCode.ALLOW.code();
        } catch (JsonProcessingException e) {
            err.println("shellgate setup: " + file + " is not valid JSON (" + e.getOriginalMessage() + "); nothing was changed");
            return ExitCode.ERROR.code();
        } catch (IOException e) {
            err.println("shellgate setup: " + file + ": " + e.getMessage());
            return ExitCode.ERROR.code();
        }
    }

    /**
     * Records what was written in the gate's state ({@link SetupRecord}); a record that cannot be written is a
     * warning, for the settings are in place.
     */
    static void record(String agent, String action, Path file, JsonNode entry, Path backup, PrintWriter out,
            PrintWriter err) {
        java.util.Optional<Path> log = SetupRecord.log(System.getenv());
        if (log.isEmpty()) {
            err.println("shellgate setup: warning: not recorded (no state directory: HOME is not set);"
                    + " shellgate doctor cannot tell whether " + file + " changes");
            return;
        }
        try {
            SetupRecord.of(agent, action, file, entry, backup).append(log.get());
            out.println("  recorded: " + log.get());
        } catch (IOException e) {
            err.println("shellgate setup: warning: not recorded in " + log.get() + " (" + e.getMessage() + ");"
                    + " shellgate doctor cannot tell whether " + file + " changes");
        }
    }

    /** shellgate's entries in {@code settings}, by event (with Claude Code's PostToolUse one): what setup wrote. */
    static ObjectNode ourEntries(ObjectNode settings, Agent a) {
        ObjectNode out = JSON.createObjectNode();
        for (Agent each : a.after() == null ? List.of(a) : List.of(a, a.after())) {
            ArrayNode mine = JSON.createArrayNode();
            for (JsonNode g : settings.path("hooks").path(each.event())) {
                boolean ours = a.flat() ? ours(g, a.name())
                        : g.path("hooks").isArray() && java.util.stream.StreamSupport.stream(g.path("hooks").spliterator(), false)
                                .anyMatch(h -> ours(h, a.name()));
                if (ours) {
                    mine.add(g);
                }
            }
            out.set(each.event(), mine);
        }
        return out;
    }

    /** {@link #hookCommand} as a command and its arguments, for a plugin that starts it without a shell. */
    static List<String> hookArgv(String agent) {
        String launcher = System.getenv("SHELLGATE_LAUNCHER");
        if (launcher == null || !launcher.startsWith("/")) {
            return List.of("shellgate-hook", agent);
        }
        Path client = Path.of(launcher).resolveSibling("shellgate-hook");
        return Files.isRegularFile(client) && Files.isExecutable(client) ? List.of(client.toString(), agent)
                : List.of("bash", launcher, "hook", agent);
    }

    /** The command the hook runs: shellgate-hook beside the launcher, else the launcher script through bash. */
    static String hookCommand(String agent) {
        String launcher = System.getenv("SHELLGATE_LAUNCHER");
        if (launcher == null || !launcher.startsWith("/")) {
            return "shellgate-hook " + agent;
        }
        Path client = Path.of(launcher).resolveSibling("shellgate-hook");
        return Files.isRegularFile(client) && Files.isExecutable(client) ? HookGate.shellWord(client.toString()) + " " + agent
                : "bash " + HookGate.shellWord(launcher) + " hook " + agent;
    }

    private static ObjectNode read(Path file) throws IOException {
        if (!Files.exists(file) || Files.size(file) == 0) {
            return JSON.createObjectNode();
        }
        JsonNode node = JSON.readTree(Files.readString(file, StandardCharsets.UTF_8));
        if (node == null || !node.isObject()) {
            throw new IOException("it does not hold a JSON object; nothing was changed");
        }
        return (ObjectNode) node;
    }

    /** Whether a hook entry is shellgate's for this agent (by the command it runs). */
    static boolean ours(JsonNode hook, String agent) {
        // a path with a space is written in single quotes
        String c = (hook.has("bash") ? hook.path("bash").asText("") : hook.path("command").asText("")).replace("'", "");
        return c.endsWith("shellgate-hook " + agent) || c.endsWith(" hook " + agent) && c.contains("shellgate");
    }

    private static ArrayNode groups(ObjectNode settings, Agent a) throws IOException {
        JsonNode hooks = settings.get("hooks");
        if (hooks == null) {
            hooks = settings.putObject("hooks");
        } else if (!hooks.isObject()) {
            throw new IOException("its \"hooks\" is not a JSON object; nothing was changed");
        }
        JsonNode groups = hooks.get(a.event());
        if (groups == null) {
            groups = ((ObjectNode) hooks).putArray(a.event());
        } else if (!groups.isArray()) {
            throw new IOException("its \"hooks\"." + a.event() + " is not a JSON array; nothing was changed");
        }
        return (ArrayNode) groups;
    }

    /** Puts shellgate's entry in, replacing an earlier one of shellgate's; false when it is there as it would be. */
    static boolean putEntry(ObjectNode settings, Agent a, String command) throws IOException {
        if (a.flat()) {
            return putFlat(settings, a, command);
        }
        ObjectNode group = JSON.createObjectNode();
        group.put("matcher", a.matcher());
        ObjectNode hook = group.putArray("hooks").addObject();
        hook.put("type", "command");
        hook.put("command", command);
        if (a.failClosed()) {
            hook.put("onFailure", "block");
        }
        ArrayNode groups = groups(settings, a);
        for (JsonNode g : groups) {
            if (g.equals(group)) {
                return false;
            }
        }
        removeEntry(settings, a);
        groups(settings, a).add(group);
        return true;
    }

    /** Copilot CLI's form: {@code {"version": 1, "hooks": {"preToolUse": [{"type": "command", "bash": ...}]}}}. */
    private static boolean putFlat(ObjectNode settings, Agent a, String command) throws IOException {
        ObjectNode hook = JSON.createObjectNode();
        hook.put("type", "command");
        hook.put("bash", command);
        hook.put("timeoutSec", COPILOT_TIMEOUT_SECONDS);
        ArrayNode entries = groups(settings, a);
        boolean versioned = settings.path("version").asInt(0) == 1;
        for (JsonNode e : entries) {
            if (e.equals(hook) && versioned) {
                return false;
            }
        }
        if (settings.has("version") && !versioned) {
            throw new IOException("its \"version\" is " + settings.get("version") + ", not 1; nothing was changed");
        }
        settings.put("version", 1);
        removeEntry(settings, a);
        groups(settings, a).add(hook);
        return true;
    }

    /** Takes shellgate's entries out (a group left with no hook goes too); false when there was none. */
    static boolean removeEntry(ObjectNode settings, Agent a) throws IOException {
        boolean removed = false;
        if (a.flat()) {
            Iterator<JsonNode> entries = groups(settings, a).elements();
            while (entries.hasNext()) {
                if (ours(entries.next(), a.name())) {
                    entries.remove();
                    removed = true;
                }
            }
            return removed;
        }
        Iterator<JsonNode> groups = groups(settings, a).elements();
        while (groups.hasNext()) {
            JsonNode g = groups.next();
            JsonNode hooks = g.path("hooks");
            if (!hooks.isArray()) {
                continue;
            }
            Iterator<JsonNode> each = hooks.elements();
            while (each.hasNext()) {
                if (ours(each.next(), a.name())) {
                    each.remove();
                    removed = true;
                }
            }
            if (hooks.isEmpty()) {
                groups.remove();
            }
        }
        return removed;
    }

    /**
     * Copies {@code file} to {@code FILE.shellgate-backup-TIME} (TIME to the second), never over an earlier backup: a
     * second change within the same second (a setup and its removal) gets {@code TIME-2}, {@code TIME-3}, and so on.
     */
    static Path keep(Path file, Instant now) throws IOException {
        String base = file.getFileName() + ".shellgate-backup-" + now.truncatedTo(ChronoUnit.SECONDS).toString().replace(":", "");
        for (int n = 1; ; n++) {
            Path backup = file.resolveSibling(n == 1 ? base : base + "-" + n);
            try {
                Files.copy(file, backup, StandardCopyOption.COPY_ATTRIBUTES);
                return backup;
            } catch (FileAlreadyExistsException e) {
                if (n == 100) {
                    throw new IOException("100 backups of " + file + " within one second; nothing was changed", e);
                }
            }
        }
    }

    /** Writes the file through a temporary file renamed over it, keeping the old one as a backup; returns the backup. */
    static Path write(Path file, String text) throws IOException {
        Files.createDirectories(file.toAbsolutePath().getParent());
        Path backup = null;
        if (Files.exists(file)) {
            backup = keep(file, Instant.now());
        }
        Path tmp = file.resolveSibling("." + file.getFileName() + ".shellgate-tmp-" + ProcessHandle.current().pid());
        Files.writeString(tmp, text, StandardCharsets.UTF_8);
        try {
            Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (AtomicMoveNotSupportedException e) {
            Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING);
        } finally {
            Files.deleteIfExists(tmp);
        }
        return backup;
    }
}
