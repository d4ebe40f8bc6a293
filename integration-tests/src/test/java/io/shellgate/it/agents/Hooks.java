package io.shellgate.it.agents;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.stream.Stream;

/** Hook configuration in the agents' settings files, and a hook that records what it was given. */
public final class Hooks {

    private Hooks() {}

    /**
     * {@code {"EVENT": [{"matcher": M, "hooks": [{"type": "command", "command": C}]}]}}: the shape
     * Claude Code set and Gemini CLI, Codex and Qwen Code took over, each with its own event names.
     * A null matcher leaves the field out (every tool).
     */
    static ObjectNode claudeStyle(String event, String matcher, String command) {
        ObjectNode handler = StubModel.object().put("type", "command").put("command", command);
        ObjectNode group = StubModel.object();
        if (matcher != null) {
            group.put("matcher", matcher);
        }
        group.putArray("hooks").add(handler);
        ObjectNode hooks = StubModel.object();
        hooks.putArray(event).add(group);
        return hooks;
    }

    /**
     * Writes a hook script into {@code dir} that saves its standard input to a new file
     * {@code hook-input-*.json} there and allows (exit 0, nothing printed), and returns the command
     * line that runs it.
     */
    public static String recorder(Path dir) {
        try {
            Files.createDirectories(dir);
            Path script = dir.resolve("record-hook.sh");
            Files.writeString(script, """
                    #!/bin/sh
                    # saves what the agent sent and allows the call
                    cat > "%s/hook-input-$(date +%%s%%N)-$$.json"
                    exit 0
                    """.formatted(dir));
            Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwxr-xr-x"));
            return word(script.toString());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A word of a shell command line: as it is when plain, else in single quotes (a checkout's path may hold a space). */
    public static String word(String s) {
        boolean plain = !s.isEmpty() && s.chars().allMatch(ch -> ch < 128
                && (Character.isLetterOrDigit(ch) || "_@%+=:,./-".indexOf(ch) >= 0));
        return plain ? s : "'" + s.replace("'", "'\\''") + "'";
    }

    /** The inputs a {@link #recorder} hook saved in {@code dir}, oldest first, parsed as JSON. */
    public static List<JsonNode> recorded(Path dir) {
        try (Stream<Path> files = Files.list(dir)) {
            return files.filter(f -> f.getFileName().toString().startsWith("hook-input-")).sorted()
                    .map(Hooks::parse).toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static JsonNode parse(Path file) {
        try {
            return StubModel.JSON.readTree(Files.readString(file));
        } catch (IOException e) {
            throw new UncheckedIOException("hook input " + file + " is not JSON", e);
        }
    }
}
