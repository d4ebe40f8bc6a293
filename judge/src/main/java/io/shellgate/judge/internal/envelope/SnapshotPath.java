package io.shellgate.judge.internal.envelope;

import io.shellgate.judge.internal.syntax.Command;
import io.shellgate.judge.internal.syntax.Script;
import io.shellgate.judge.internal.syntax.Word;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The {@code PATH} an agent's shell snapshot leaves behind. The inner command runs after the
 * snapshot is sourced, so its programs are found along this {@code PATH}, which may differ from
 * the agent's own: the judge must resolve names along the one that will be used.
 */
final class SnapshotPath {

    /** Larger snapshots are not read (Claude Code caps its own far below this). */
    private static final long MAX_BYTES = 8L << 20;

    private SnapshotPath() {}

    /** What reading a snapshot found. */
    sealed interface Result {
        /** The snapshot sets no PATH (or does not exist): the shell's own stays. */
        record Unchanged() implements Result {}

        /** The last top-level export of PATH in the snapshot. */
        record Set(String path) implements Result {}

        /** The snapshot could not be read, or its PATH line not understood: not recognised. */
        record Unknown() implements Result {}
    }

    /**
     * Reads the top-level lines of {@code snapshot} that export {@code PATH} ({@code export PATH=…},
     * {@code declare -x PATH=…}, {@code typeset -x PATH=…}), each parsed by the judge's parser.
     */
    static Result read(Path snapshot) {
        if (!Files.exists(snapshot, LinkOption.NOFOLLOW_LINKS)) {
            return new Result.Unchanged();
        }
        List<String> lines;
        try {
            if (Files.size(snapshot) > MAX_BYTES) {
                return new Result.Unknown();
            }
            lines = Files.readAllLines(snapshot, StandardCharsets.UTF_8);
        } catch (IOException | RuntimeException e) {
            return new Result.Unknown();
        }
        Result found = new Result.Unchanged();
        for (String line : lines) {
            if (line.startsWith("export PATH=") || line.startsWith("declare -x PATH=") || line.startsWith("typeset -x PATH=")) {
                Optional<String> value = value(line);
                if (value.isEmpty()) {
                    return new Result.Unknown();
                }
                found = new Result.Set(value.get());
            }
        }
        return found;
    }

    /**
     * Puts what {@code result} found into {@code env} ({@code prefix} before it, when not null):
     * false when the result is unknown, so that the envelope is not recognised.
     */
    static boolean applyTo(Result result, Map<String, String> env, String prefix) {
        String path = switch (result) {
            case Result.Unknown u -> null;
            case Result.Set s -> s.path();
            case Result.Unchanged u -> env.get("PATH");
        };
        if (result instanceof Result.Unknown) {
            return false;
        }
        if (prefix != null) {
            path = path == null || path.isEmpty() ? prefix : prefix + ":" + path;
        }
        if (path != null) {
            env.put("PATH", path);
        }
        return true;
    }

    static boolean applyTo(Result result, Map<String, String> env) {
        return applyTo(result, env, null);
    }

    private static Optional<String> value(String line) {
        Script s = Parsing.clean(line);
        if (s == null || !(s.body() instanceof Command.Simple c) || !c.assignments().isEmpty() || c.words().size() != 3
                && !(c.words().size() == 2 && "export".equals(c.words().getFirst().literal()))) {
            return Optional.empty();
        }
        Word last = c.words().getLast();
        String text = last.literal();
        return text != null && text.startsWith("PATH=") ? Optional.of(text.substring(5)) : Optional.empty();
    }
}
