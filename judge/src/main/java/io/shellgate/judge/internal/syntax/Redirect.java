package io.shellgate.judge.internal.syntax;

import io.shellgate.judge.Span;

/**
 * A redirection: {@code > f}, {@code 2>&1}, {@code < f}, {@code <<EOF}, {@code <<< word}.
 *
 * @param op the operator ({@code >}, {@code >>}, {@code <}, {@code >&}, {@code &>}, {@code <<},
 *     {@code <<<}...)
 * @param fd the file descriptor written before the operator, or -1
 * @param target the file, descriptor or here-string word; null for a heredoc
 * @param heredoc the heredoc body, or null
 */
public record Redirect(String op, int fd, Word target, Heredoc heredoc, Span span) {

    /**
     * A heredoc body.
     *
     * @param expands whether the delimiter was unquoted, so that the body is expanded
     * @param body the body as a word (literal text and expansions)
     */
    public record Heredoc(boolean expands, Word body) {}
}
