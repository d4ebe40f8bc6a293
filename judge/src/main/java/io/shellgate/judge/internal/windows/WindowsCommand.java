package io.shellgate.judge.internal.windows;

import io.shellgate.judge.Span;
import java.util.ArrayList;
import java.util.List;

/**
 * One PowerShell or cmd command after canonicalisation, the shape the policy's rules match.
 *
 * @param name the canonical name ({@code Remove-Item}, {@code rd}, {@code format})
 * @param options canonical option names ({@code -Recurse}, {@code /s})
 * @param operands the other arguments in order; null for one whose value is computed at run time
 */
public record WindowsCommand(String name, List<String> options, List<String> operands, Span span) {

    public WindowsCommand {
        options = List.copyOf(options);
        operands = new ArrayList<>(operands);
    }

    /** Whether an option of this name (any case) is present. */
    public boolean has(String option) {
        for (String o : options) {
            if (o.equalsIgnoreCase(option)) {
                return true;
            }
        }
        return false;
    }
}
