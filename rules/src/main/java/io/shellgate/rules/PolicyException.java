package io.shellgate.rules;

import java.util.List;

/**
 * A policy file could not be used. The message names each problem with its file:line:column and
 * how to fix it; a broken policy is never replaced by a weaker one.
 */
public final class PolicyException extends Exception {

    private static final long serialVersionUID = 1L;

    private final List<String> problems;

    public PolicyException(List<String> problems) {
        super(String.join("\n", problems));
        this.problems = List.copyOf(problems);
    }

    public PolicyException(String problem) {
        this(List.of(problem));
    }

    /** One line per problem, each starting with its location. */
    public List<String> problems() {
        return problems;
    }
}
