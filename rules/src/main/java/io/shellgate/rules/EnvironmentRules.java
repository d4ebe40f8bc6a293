package io.shellgate.rules;

import java.util.List;

/**
 * Which environment variables may be set on a command line without review.
 *
 * @param safe names (or {@code PREFIX*} patterns) that change nothing about what runs
 * @param dangerous names that change what runs or how ({@code PATH}, {@code LD_PRELOAD}...);
 *     setting one is always a reason to ask, even as a plain shell variable
 * @param secret names (or globs such as {@code *TOKEN*}, matched ignoring case) of variables that
 *     hold secrets: expanding one, or printing it, is a reason to ask
 */
public record EnvironmentRules(List<String> safe, List<String> dangerous, List<String> secret) {

    public EnvironmentRules {
        safe = List.copyOf(safe);
        dangerous = List.copyOf(dangerous);
        secret = List.copyOf(secret);
    }

    /** Rules that name no secret variables. */
    public EnvironmentRules(List<String> safe, List<String> dangerous) {
        this(safe, dangerous, List.of());
    }
}
