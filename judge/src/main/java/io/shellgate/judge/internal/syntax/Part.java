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
     * A parameter expansion: {@code $x}, {@code ${x}}, {@code ${x:-word}}, {@code ${a[i]}},
     * {@code $1}, {@code $@}.
     *
     * @param name the variable name, a digit, or a special parameter ({@code @ * # ? $ ! -})
     * @param subscript the array subscript as written ({@code i} in {@code ${a[i]}}), or null
     * @param operator the expansion operator ({@code :-}, {@code /}, {@code #}, {@code :} for a
     *     substring...), or empty for a plain expansion; {@code length} for {@code ${#x}},
     *     {@code indirect} for {@code ${!x}}, {@code names} for {@code ${!x*}} and
     *     {@code keys} for {@code ${!a[@]}}
     * @param operands the words the operator uses ({@code word} in {@code ${x:-word}}); for a
     *     substring, arithmetic words
     */
    record Param(String name, Word subscript, String operator, List<Word> operands, boolean quoted, Span span) implements Part {

        public Param {
            operands = List.copyOf(operands);
        }

        public Param(String name, String operator, List<Word> operands, boolean quoted, Span span) {
            this(name, null, operator, operands, quoted, span);
        }
    }

    /** {@code $(...)} or backquotes: the script runs and its output becomes text. */
    record CommandSub(Script body, boolean quoted, Span span) implements Part {}

    /** {@code <(...)} or {@code >(...)}: the script runs and a file name takes its place. */
    record ProcessSub(Script body, boolean input, Span span) implements Part {}

    /**
     * Text the shell evaluates as arithmetic ({@code $((...))}, {@code ((...))}, a substring
     * offset, the operands of {@code [[ a -eq b ]]}): a number. Evaluating it reads variables, and
     * their values are evaluated in turn, so it is code as much as text.
     *
     * @param expression the expression as written: literal text and the expansions in it
     */
    record Arithmetic(List<Part> expression, Span span) implements Part {

        public Arithmetic {
            expression = List.copyOf(expression);
        }
    }

    /**
     * Text the shell reads as a variable's name, after expanding it: the operand of
     * {@code [[ -v NAME ]]}. A subscript in it is evaluated ({@code a[$(id)]} runs id).
     */
    record VariableName(List<Part> parts, Span span) implements Part {

        public VariableName {
            parts = List.copyOf(parts);
        }
    }

    /** Something the converter did not understand; the judge never allows it. */
    record Opaque(String why, Span span) implements Part {}
}
