package io.shellgate.reviewer;

import io.shellgate.reviewer.internal.PendingAsks;
import io.shellgate.reviewer.internal.StateDir;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/** The asks waiting for a person, for {@code shellgate approvals} to list and answer. */
public final class Approvals {

    private final PendingAsks pending;

    private Approvals(Path stateDir) {
        this.pending = new PendingAsks(stateDir);
    }

    /** The queue of this environment's state directory; null when no state directory is known. */
    public static Approvals in(Map<String, String> env) {
        Path dir = StateDir.of(env);
        return dir == null ? null : new Approvals(dir);
    }

    /** The asks waiting now, oldest first. */
    public List<Waiting> waiting() throws IOException {
        return pending.list().stream().map(l -> new Waiting(l.id(), l.since(), l.until(), l.entry(), l.pid(), l.detail(),
                l.cwd(), l.command(), l.reasons())).toList();
    }

    /**
     * Answers one waiting ask, named by its id or a unique prefix of at least 4 characters.
     *
     * @return the full id answered
     * @throws IllegalArgumentException when no waiting ask matches, several do, or it has an answer already
     */
    public String answer(String id, Answer answer, String by) throws IOException {
        return pending.answer(id, answer, by);
    }
}
