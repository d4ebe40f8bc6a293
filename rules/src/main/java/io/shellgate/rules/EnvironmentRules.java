package io.shellgate.rules;

import java.util.List;

/**
 * Which environment variables may be set on a command line without review.
 *
 * @param safe names (or {@code PREFIX*} patterns) that change nothing about what runs
 * @param dangerous names that change what runs or how ({@code PATH}, {@code LD_PRELOAD}...);
 *     setting one is always a reason to ask, even as a plain shell variable
 */
public record EnvironmentRules(List<String> safe, List<String> dangerous) {

    public EnvironmentRules {
        safe = List.copyOf(safe);
        dangerous = List.copyOf(dangerous);
    }
}
