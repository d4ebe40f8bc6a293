package io.shellgate.judge.internal.analysis.model;

import io.shellgate.judge.internal.syntax.Command;
import java.util.List;

/**
 * Where a command's standard input comes from, as far as the line shows.
 *
 * @param upstream the pipeline stages before it, whose output it reads
 * @param downloads whether what it reads may come from the network
 * @param literal the exact text it reads, when a heredoc or here-string gives it in full; else null
 * @param redirected whether a redirection (file, heredoc, here-string) replaced the inherited input
 */
public record Stdin(List<Command> upstream, boolean downloads, String literal, boolean redirected) {

    public static final Stdin NONE = new Stdin(List.of(), false, null, false);

    public Stdin(List<Command> upstream, boolean downloads) {
        this(upstream, downloads, null, false);
    }

    /** Whether the command reads something the line produces (a pipe or a redirection). */
    public boolean isSupplied() {
        return !upstream.isEmpty() || redirected;
    }
}
