package io.shellgate.rules;

import java.util.List;

/**
 * Command lines a rule must match and must not match; loading a policy runs them.
 *
 * @param match command lines the rule must match
 * @param notMatch command lines the rule must not match
 */
public record Examples(List<String> match, List<String> notMatch) {

    public Examples {
        match = List.copyOf(match);
        notMatch = List.copyOf(notMatch);
    }

    public static final Examples NONE = new Examples(List.of(), List.of());

    public boolean isEmpty() {
        return match.isEmpty() && notMatch.isEmpty();
    }
}
