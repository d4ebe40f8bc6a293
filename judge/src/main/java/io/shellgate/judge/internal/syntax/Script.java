package io.shellgate.judge.internal.syntax;

import io.shellgate.judge.Span;
import java.util.List;

/**
 * A parsed command line.
 *
 * @param body the commands, in order
 * @param comments the spans of comments (text the shell ignores)
 * @param errors the spans the parser could not make sense of; a script with errors is never allowed
 */
public record Script(Command body, List<Span> comments, List<Span> errors) {

    public Script {
        comments = List.copyOf(comments);
        errors = List.copyOf(errors);
    }
}
