package io.shellgate.rules;

import java.util.List;
import java.util.Map;

/**
 * Named sets of path patterns. Patterns are globs on absolute paths after {@code ~} is expanded:
 * {@code *} stays within one path segment, {@code **} crosses segments.
 *
 * <p>Built-in names the judge uses: {@code sensitive} (reading asks), {@code critical} (recursive
 * deletion or permission changes are catastrophic), {@code devices} (writing destroys data),
 * {@code harmless-outputs} (redirecting output there is not a write).
 */
public record PathSets(Map<String, List<String>> sets) {

    public PathSets {
        sets = Map.copyOf(sets);
    }

    public List<String> get(String name) {
        return sets.getOrDefault(name, List.of());
    }
}
