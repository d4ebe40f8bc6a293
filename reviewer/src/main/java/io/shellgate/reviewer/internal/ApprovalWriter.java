package io.shellgate.reviewer.internal;

import io.shellgate.rules.Layer;
import io.shellgate.rules.PolicyException;
import io.shellgate.rules.PolicyLoader;
import io.shellgate.rules.PolicySource;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Writes an "always" answer into a policy file as an {@code [[approved]]} entry: under a lock, as
 * a private temporary file renamed over the old one, and only when the result still loads, so the
 * file is never left half-written or invalid.
 */
public final class ApprovalWriter {

    private ApprovalWriter() {}

    /**
     * Appends an exact approval of {@code command}, limited to {@code project} when not null, counting until
     * {@code expires} when not null.
     *
     * @return the id of the new entry
     */
    public static String appendExact(Path policyFile, String command, String project, String who, String home,
            Instant expires) throws IOException, PolicyException {
        String id = "approved-" + HexFormat.of().toHexDigits(ThreadLocalRandom.current().nextInt());
        rewrite(policyFile, home, old -> {
            String text = old.isBlank() ? "version = 1\n" : old.endsWith("\n") ? old : old + "\n";
            Instant now = Instant.now().truncatedTo(ChronoUnit.SECONDS);
            StringBuilder entry = new StringBuilder()
                    .append("\n# approved ").append(now).append(" by ").append(oneLine(who)).append('\n')
                    .append("[[approved]]\n")
                    .append("id = ").append(quote(id)).append('\n')
                    .append("command = ").append(quote(command)).append('\n');
            if (project != null) {
                entry.append("project = ").append(quote(project)).append('\n');
            }
            if (expires != null) {
                entry.append("expires = ").append(quote(expires.toString())).append('\n');
            }
            entry.append("note = ").append(quote("approved " + now + " by " + who)).append('\n');
            return text + entry;
        });
        return id;
    }

    /**
     * Removes the {@code [[approved]]} table whose id is {@code id} from the file, with the comment line written
     * above it, under the same lock and checks as an append.
     *
     * @throws IllegalArgumentException when the file has no such table written as one (an entry written another way,
     *     such as an inline table, is left for the person to edit)
     */
    public static void remove(Path policyFile, String id, String home) throws IOException, PolicyException {
        rewrite(policyFile, home, old -> without(old, id));
    }

    static String without(String text, String id) {
        List<String> lines = new java.util.ArrayList<>(List.of(text.split("\n", -1)));
        for (int i = 0; i < lines.size(); i++) {
            if (!lines.get(i).strip().equals("[[approved]]")) {
                continue;
            }
            int end = i + 1;
            boolean ours = false;
            while (end < lines.size() && !lines.get(end).stripLeading().startsWith("[")) {
                String l = lines.get(end).strip();
                if (l.startsWith("id") && l.substring(2).strip().startsWith("=")
                        && l.substring(l.indexOf('=') + 1).strip().equals(quote(id))) {
                    ours = true;
                }
                end++;
            }
            if (!ours) {
                continue;
            }
            // the comment lines written with it, and the blank line before them
            int start = i;
            while (start > 0 && lines.get(start - 1).startsWith("# approved ")) {
                start--;
            }
            if (start > 0 && lines.get(start - 1).isBlank()) {
                start--;
            }
            // trailing comments and blank lines belong to whatever follows
            while (end > i + 1 && (lines.get(end - 1).isBlank() || lines.get(end - 1).startsWith("#"))) {
                end--;
            }
            lines.subList(start, end).clear();
            return String.join("\n", lines);
        }
        throw new IllegalArgumentException("no [[approved]] table with id = " + quote(id) + " in this file");
    }

    /** Rewrites the file under a lock, as a private temporary file renamed over it, only when the result loads. */
    private static void rewrite(Path policyFile, String home, java.util.function.UnaryOperator<String> change)
            throws IOException, PolicyException {
        Files.createDirectories(policyFile.toAbsolutePath().getParent());
        Path lockPath = policyFile.resolveSibling(policyFile.getFileName() + ".lock");
        synchronized (ApprovalWriter.class) {
            try (FileChannel ch = FileChannel.open(lockPath, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
                    FileLock lock = ch.lock()) {
                String old = Files.exists(policyFile) ? Files.readString(policyFile, StandardCharsets.UTF_8) : "";
                String updated = change.apply(old);
                // the file must still load: a broken policy would refuse every command
                PolicyLoader.load(List.of(PolicyLoader.builtIn(), new PolicySource(Layer.USER, policyFile.toString(),
                        updated)), home);
                Path tmp = policyFile.resolveSibling("." + policyFile.getFileName() + ".tmp-" + ProcessHandle.current().pid());
                Files.writeString(tmp, updated, StandardCharsets.UTF_8);
                try {
                    Files.move(tmp, policyFile, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
                } catch (AtomicMoveNotSupportedException e) {
                    Files.move(tmp, policyFile, StandardCopyOption.REPLACE_EXISTING);
                } finally {
                    Files.deleteIfExists(tmp);
                }
            }
        }
    }

    private static String oneLine(String s) {
        return s.replaceAll("[\\r\\n]", " ");
    }

    /** A TOML basic string. */
    static String quote(String s) {
        StringBuilder sb = new StringBuilder("\"");
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> sb.append("\\\"");
                case '\\' -> sb.append("\\\\");
                case '\n' -> sb.append("\\n");
                case '\t' -> sb.append("\\t");
                case '\r' -> sb.append("\\r");
                default -> {
                    if (c < 0x20 || c == 0x7f) {
                        sb.append(String.format("\\u%04X", (int) c));
                    } else {
                        sb.append(c);
                    }
                }
            }
        }
        return sb.append('"').toString();
    }
}
