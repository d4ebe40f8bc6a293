package io.shellgate.judge.internal.envelope;

import io.shellgate.judge.internal.envelope.SnapshotDefinitions.Read;
import java.io.IOException;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * An agent's shell snapshot as sourced by its envelope, read once per content: what it defines
 * ({@link SnapshotDefinitions}), with the block Claude Code's snapshot script appends (its own
 * {@code rg}, {@code find}, {@code grep} and {@code pkill} functions) matched against the script's
 * exact text rather than taken as the user's definitions.
 *
 * <p>A read is kept while the file gives the same stamp (identity, size, modification and change
 * times: the change time cannot be set back by the file's owner), so a command does not pay for
 * reading the file again.
 */
final class SnapshotFile {

    /** Larger snapshots are not read (Claude Code caps its own far below this). */
    private static final long MAX_BYTES = 8L << 20;
    private static final int MAX_CACHED = 64;

    /** The functions Claude Code's own block defines; {@code rg} only when no {@code rg} exists before it. */
    private static final List<String> CLAUDE_OWN = List.of("find", "grep", "pkill");
    private static final String CLAUDE_BLOCK_START = "# Check for rg availability\n";
    private static final Template CLAUDE_BLOCK = claudeBlock();

    private static final Map<Key, Snapshot> CACHE = new ConcurrentHashMap<>();

    private SnapshotFile() {}

    /**
     * A read snapshot.
     *
     * @param read what it defines, or why it was refused; for an absent file, no definitions
     * @param absent whether the file does not exist (the envelope's {@code source} then fails
     *     harmlessly)
     * @param claudeHome the home folder Claude Code's block names, or null when there is no block
     */
    record Snapshot(Read read, boolean absent, String claudeHome) {}

    private record Key(Path path, boolean claude) {}

    private record Stamp(Object key, long size, Object modified, Object changed) {}

    private static final Map<Key, Stamp> STAMPS = new ConcurrentHashMap<>();

    /** Reads {@code file}; {@code claude} when Claude Code's block may end it. */
    static Snapshot read(Path file, boolean claude) {
        Stamp stamp = stamp(file);
        if (stamp == null) {
            return Files.exists(file, LinkOption.NOFOLLOW_LINKS) ? refused("cannot be read")
                    : new Snapshot(new Read.Definitions(null, Map.of(), Set.of(), Map.of()), true, null);
        }
        Key key = new Key(file, claude);
        Snapshot cached = CACHE.get(key);
        if (cached != null && stamp.equals(STAMPS.get(key))) {
            return cached;
        }
        Snapshot fresh = readNow(file, claude, stamp);
        // a stamp taken again after the read: a file changed while it was read is not kept
        if (stamp.equals(stamp(file))) {
            if (CACHE.size() >= MAX_CACHED) {
                CACHE.clear();
                STAMPS.clear();
            }
            CACHE.put(key, fresh);
            STAMPS.put(key, stamp);
        }
        return fresh;
    }

    private static Snapshot readNow(Path file, boolean claude, Stamp stamp) {
        if (stamp.size() > MAX_BYTES) {
            return refused("is too large to read");
        }
        String text;
        try {
            text = StandardCharsets.UTF_8.newDecoder().decode(java.nio.ByteBuffer.wrap(Files.readAllBytes(file))).toString();
        } catch (CharacterCodingException e) {
            return refused("is not UTF-8 text");
        } catch (IOException | RuntimeException e) {
            return refused("cannot be read");
        }
        if (text.indexOf('\0') >= 0) {
            return refused("holds a NUL byte");
        }
        if (claude) {
            int at = text.startsWith(CLAUDE_BLOCK_START) ? 0 : text.indexOf("\n" + CLAUDE_BLOCK_START);
            while (at >= 0) {
                int start = at == 0 && text.startsWith(CLAUDE_BLOCK_START) ? 0 : at + 1;
                Snapshot s = withClaudeBlock(text.substring(0, start), text.substring(start));
                if (s != null) {
                    return s;
                }
                at = text.indexOf("\n" + CLAUDE_BLOCK_START, start + 1);
            }
        }
        return new Snapshot(SnapshotDefinitions.read(text), false, null);
    }

    /** The user's part {@code head} read as definitions, then Claude Code's {@code block}; null when it is not that block. */
    private static Snapshot withClaudeBlock(String head, String block) {
        Map<String, String> parts = CLAUDE_BLOCK.match(block.endsWith("\n") ? block : block + "\n");
        if (parts == null) {
            return null;
        }
        Read user = SnapshotDefinitions.read(head);
        Read pathLine = SnapshotDefinitions.read("export PATH=" + parts.get("PATH") + "\n");
        if (!(user instanceof Read.Definitions d)) {
            return new Snapshot(user, false, null);
        }
        if (!(pathLine instanceof Read.Definitions p) || p.path() == null || !p.exports().isEmpty()) {
            return refused("sets a PATH that is not a fixed value");
        }
        Set<String> functions = new LinkedHashSet<>(d.functions());
        Map<String, String> aliases = new LinkedHashMap<>(d.aliases());
        // the block unaliases find, grep and pkill and defines them; it defines rg only when none exists yet
        CLAUDE_OWN.forEach(functions::remove);
        CLAUDE_OWN.forEach(aliases::remove);
        return new Snapshot(new Read.Definitions(p.path(), d.exports(), Set.copyOf(functions), Map.copyOf(aliases)), false,
                parts.get("HOME"));
    }

    private static Snapshot refused(String why) {
        return new Snapshot(new Read.Refused(why), false, null);
    }

    private static Stamp stamp(Path file) {
        try {
            Map<String, Object> a = Files.readAttributes(file, "unix:ino,dev,size,lastModifiedTime,ctime,isRegularFile",
                    LinkOption.NOFOLLOW_LINKS);
            if (!Boolean.TRUE.equals(a.get("isRegularFile"))) {
                return null;
            }
            return new Stamp(List.of(a.get("dev"), a.get("ino")), (Long) a.get("size"), a.get("lastModifiedTime"), a.get("ctime"));
        } catch (NoSuchFileException e) {
            return null;
        } catch (IOException | UnsupportedOperationException | IllegalArgumentException | ClassCastException e) {
            try {
                var a = Files.readAttributes(file, java.nio.file.attribute.BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
                return a.isRegularFile() ? new Stamp(Objects.requireNonNullElse(a.fileKey(), file), a.size(),
                        a.lastModifiedTime(), a.creationTime()) : null;
            } catch (IOException | RuntimeException again) {
                return null;
            }
        }
    }

    /** The heredoc body of Claude Code's snapshot script from its first line to its last. */
    private static Template claudeBlock() {
        String script = Template.resource("claude-snapshot-bash.txt");
        String open = "<< 'CLAUDE_CODE_END_{{MARKER}}'\n";
        int start = script.indexOf(open) + open.length();
        int end = script.indexOf("CLAUDE_CODE_END_{{MARKER}}\n", start);
        String body = script.substring(start, end);
        if (!body.startsWith(CLAUDE_BLOCK_START)) {
            throw new IllegalStateException("Claude Code's snapshot block does not start with its rg check");
        }
        Map<String, String> parts = new HashMap<>();
        parts.put("CLAUDE", ClaudeProbes.CLAUDE_RE);
        parts.put("HOME", ClaudeProbes.HOME_RE);
        parts.put("PATH", "[^\\n]*");
        return Template.of(body, parts);
    }
}
