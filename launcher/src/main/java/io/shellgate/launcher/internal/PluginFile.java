package io.shellgate.launcher.internal;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.shellgate.launcher.internal.cli.ExitCode;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * The plugin file {@code shellgate setup} writes for an agent whose gate is a plugin (OpenCode's
 * plugin, also Kilo's, and Pi's extension): shellgate's own file in the agent's plugin folder, the hook command
 * filled in. A file of that name that is not shellgate's is never overwritten or removed.
 */
final class PluginFile {

    /** How the first line of every plugin shellgate writes starts: how a file is known as shellgate's. */
    static final String HEADER = "// shellgate's ";

    private PluginFile() {}

    /** The plugin's text for {@code agent}, running {@code hook} (the command and its arguments). */
    static String text(String agent, List<String> hook) throws IOException {
        // Kilo is a fork of OpenCode with the same plugin interface: OpenCode's plugin, naming kilo
        String name = "shellgate-" + (agent.equals("kilo") ? "opencode" : agent) + ".js";
        String template;
        try (InputStream in = PluginFile.class.getResourceAsStream(name)) {
            if (in == null) {
                throw new IOException(name + " is missing from shellgate.jar; reinstall shellgate");
            }
            template = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        String hookLine = "const HOOK = [\"shellgate-hook\", \"" + (agent.equals("kilo") ? "opencode" : agent) + "\"]";
        if (!template.startsWith(HEADER) || !template.contains(hookLine)) {
            throw new IOException(name + " in shellgate.jar is not the expected file; reinstall shellgate");
        }
        return template.replace(hookLine, "const HOOK = " + new ObjectMapper().writeValueAsString(hook));
    }

    /** Writes or removes the plugin; the exit code. */
    static int setup(Path file, String agent, List<String> hook, boolean remove, boolean dryRun, boolean project,
            String note, PrintWriter out, PrintWriter err) throws IOException {
        boolean exists = Files.exists(file);
        String now = exists ? Files.readString(file, StandardCharsets.UTF_8) : null;
        if (exists && !now.startsWith(HEADER)) {
            err.println("shellgate setup: " + file + " is not shellgate's plugin; move it away first (nothing was changed)");
            return ExitCode.ERROR.code();
        }
        if (remove) {
            if (!exists) {
                out.println("shellgate setup: no shellgate plugin at " + file + "; nothing to remove");
            } else if (dryRun) {
                out.println("would remove " + file);
            } else {
                Files.delete(file);
                out.println("removed shellgate's plugin " + file);
                SetupCommand.record(agent, "remove", file, null, null, out, err);
            }
            return ExitCode.ALLOW.code();
        }
        String text = text(agent, hook);
        if (dryRun) {
            out.print(text);
            out.flush();
            return ExitCode.ALLOW.code();
        }
        ObjectNode entry = new ObjectMapper().createObjectNode();
        entry.put("plugin", file.toAbsolutePath().toString());
        hook.forEach(entry.putArray("runs")::add);
        if (text.equals(now)) {
            out.println("shellgate setup: " + file + " is shellgate's plugin as it would be written; nothing to change");
            SetupCommand.record(agent, "setup", file, entry, null, out, err);
            return ExitCode.ALLOW.code();
        }
        Path backup = SetupCommand.write(file, text);
        out.println("shellgate's plugin is " + file + (backup == null ? "" : " (the file as it was: " + backup + ")"));
        out.println("  runs:     " + String.join(" ", hook) + " before each tool call");
        out.println("  note:     " + note);
        if (project) {
            out.println("  warning:  the agent can edit its project's plugins itself; your own (without --project) are out"
                    + " of the project's reach");
        }
        SetupCommand.record(agent, "setup", file, entry, backup, out, err);
        return ExitCode.ALLOW.code();
    }
}
