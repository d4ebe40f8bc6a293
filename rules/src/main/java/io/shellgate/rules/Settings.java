package io.shellgate.rules;

import java.util.List;

/**
 * Budgets and trust settings.
 *
 * @param maxInputBytes longer command lines are asked about without being parsed
 * @param maxDepth how deeply {@code bash -c}, {@code eval} and substitutions are followed before
 *     the judge gives up and asks
 * @param timeBudgetMillis a last guard on the clock: judging that takes longer asks (the judge counts
 *     its work first, so that a line gets the same verdict however busy the machine is)
 * @param trustedDirs directories whose programs count as trusted even when the system-ownership
 *     check would not say so (Homebrew's {@code /opt/homebrew/bin}, say)
 * @param untrustedDirs directories whose programs are never trusted
 * @param trustedProjects project directories whose policy files may make the policy more
 *     permissive (only read from the user layer and {@code --policy})
 * @param shell the real shell that runs commands when neither {@code --shell} nor
 *     {@code $SHELLGATE_SHELL} names one (a path or a name on {@code PATH}); null for the
 *     documented fallback order. A project file cannot set it unless the project is trusted.
 */
public record Settings(
        int maxInputBytes,
        int maxDepth,
        int timeBudgetMillis,
        List<String> trustedDirs,
        List<String> untrustedDirs,
        List<String> trustedProjects,
        String shell) {

    public Settings {
        trustedDirs = List.copyOf(trustedDirs);
        untrustedDirs = List.copyOf(untrustedDirs);
        trustedProjects = List.copyOf(trustedProjects);
    }
}
