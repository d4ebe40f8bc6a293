package io.shellgate.launcher.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.shellgate.rules.Places;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What {@code shellgate setup} wrote, kept in the gate's state directory ({@code setup.jsonl}, one JSON line per
 * setup or removal) rather than beside the agent's settings, where the agent could change the record with the file:
 * the agent, the settings file, the entry written, the file's SHA-256 afterwards and the backup kept.
 * {@code shellgate doctor} compares the file with its last line to tell whether it changed since.
 *
 * @param time when it was written
 * @param agent the agent's id (claude-code...)
 * @param action {@code setup} or {@code remove}
 * @param file the settings or plugin file
 * @param entry what was written (the hook groups, or the plugin's command); null for a removal
 * @param sha256 the file's digest after writing; null when the file was removed
 * @param backup the copy of the file as it was, or null when there was none
 */
record SetupRecord(Instant time, String agent, String action, Path file, JsonNode entry, String sha256, Path backup) {

    /** The file's name in the state directory. */
    static final String FILE = "setup.jsonl";

    private static final ObjectMapper JSON = new ObjectMapper();

    /** A record of {@code file} as it is now. */
    static SetupRecord of(String agent, String action, Path file, JsonNode entry, Path backup) throws IOException {
        return new SetupRecord(Instant.now().truncatedTo(ChronoUnit.SECONDS), agent, action, file.toAbsolutePath(), entry,
                Files.exists(file) ? digest(file) : null, backup == null ? null : backup.toAbsolutePath());
    }

    /** The record file in {@code env}'s state directory; empty when there is none ({@code HOME} not set). */
    static Optional<Path> log(Map<String, String> env) {
        return Places.state(env).map(s -> s.resolve(FILE));
    }

    /** Appends this record to {@code log}, making the state directory (mode 0700) when it is missing. */
    void append(Path log) throws IOException {
        Path dir = log.getParent();
        if (!Files.isDirectory(dir)) {
            Files.createDirectories(dir);
            Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwx------"));
        }
        ObjectNode line = JSON.createObjectNode();
        line.put("time", time.toString());
        line.put("agent", agent);
        line.put("action", action);
        line.put("file", file.toString());
        line.set("entry", entry);
        line.put("sha256", sha256);
        line.put("backup", backup == null ? null : backup.toString());
        Files.writeString(log, JSON.writeValueAsString(line) + "\n", StandardCharsets.UTF_8, StandardOpenOption.CREATE,
                StandardOpenOption.APPEND);
    }

    /** The last record of {@code file} in {@code log}; empty when there is none. Lines that cannot be read are skipped. */
    static Optional<SetupRecord> last(Path log, Path file) throws IOException {
        List<String> lines;
        try {
            lines = Files.readAllLines(log, StandardCharsets.UTF_8);
        } catch (NoSuchFileException e) {
            return Optional.empty();
        }
        String wanted = file.toAbsolutePath().toString();
        for (String text : lines.reversed()) {
            try {
                JsonNode n = JSON.readTree(text);
                if (n != null && wanted.equals(n.path("file").asText(null))) {
                    return Optional.of(new SetupRecord(Instant.parse(n.path("time").asText()), n.path("agent").asText(),
                            n.path("action").asText(), file.toAbsolutePath(), n.get("entry"), n.path("sha256").textValue(),
                            n.path("backup").isTextual() ? Path.of(n.path("backup").asText()) : null));
                }
            } catch (IOException | RuntimeException e) {
                // a torn or foreign line says nothing about this file
            }
        }
        return Optional.empty();
    }

    /** The SHA-256 of a file's bytes, in hex. */
    static String digest(Path file) throws IOException {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(Files.readAllBytes(file)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java runtime has SHA-256", e);
        }
    }
}
