package io.shellgate.judge.internal.syntax;

import io.shellgate.judge.Span;
import java.util.List;

/** One piece of a word: literal text or an expansion the shell performs. */
public sealed interface Part {

    Span span();

    /**
     * Literal text after quote removal.
     *
     * @param quoted whether the text was quoted or escaped, so that globs, braces and {@code ~}
     *     in it are not special
     */
    record Literal(String text, boolean quoted, Span span) implements Part {}

    /**
     * A parameter expansion: {@code $x}, {@code ${x}}, {@code ${x:-word}}, {@code $1}, {@code $@}.
     *
     * @param name the variable name, a digit, or a special parameter ({@code @ * # ? $ ! -})
     * @param operator the expansion operator ({@code :-}, {@code /}, {@code #}...), or empty for
     *     a plain expansion; {@code length} for {@code ${#x}}, {@code indirect} for {@code ${!x}}
     * @param operands the words the operator uses ({@code word} in {@code ${x:-word}})
     */
    record Param(String name, String operator, List<Word> operands, boolean quoted, Span span) implements Part {

        public Param {
            operands = List.copyOf(operands);
        }
    }

    /** {@code $(...)} or backquotes: the script runs and its output becomes text. */
    record CommandSub(Script body, boolean quoted, Span span) implements Part {}

    /** {@code <(...)} or {@code >(...)}: the script runs and a file name takes its place. */
    record ProcessSub(Script body, boolean input, Span span) implements Part {}

    /** {@code $((...))}: a number; the words are the expansions inside it. */
    record Arithmetic(List<Word> inner, Span span) implements Part {

        public Arithmetic {
            inner = List.copyOf(inner);
        }
    }

    /** Something the converter did not understand; the judge never allows it. */
    record Opaque(String why, Span span) implements Part {}
}
