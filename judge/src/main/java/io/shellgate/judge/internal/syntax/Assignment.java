package io.shellgate.judge.internal.syntax;

import io.shellgate.judge.Span;
import java.util.List;

/**
 * {@code NAME=value}, {@code NAME+=value} or {@code NAME=(a b c)}.
 *
 * @param array the elements of an array assignment, or null
 */
public record Assignment(String name, boolean append, Word value, List<Word> array, Span span) {

    public Assignment {
        array = array == null ? null : List.copyOf(array);
    }
}
