package io.shellgate.judge.internal.syntax;

import io.shellgate.judge.Span;
import java.util.List;

/**
 * {@code NAME=value}, {@code NAME+=value}, {@code NAME[SUBSCRIPT]=value} or {@code NAME=(a b c)}.
 *
 * @param subscript the subscript as written (code: it is expanded and, for indexed arrays,
 *     evaluated as arithmetic), or null
 * @param array the elements of an array assignment, or null
 */
public record Assignment(String name, Word subscript, boolean append, Word value, List<Word> array, Span span) {

    public Assignment {
        array = array == null ? null : List.copyOf(array);
    }
}
