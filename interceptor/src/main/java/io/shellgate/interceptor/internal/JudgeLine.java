package io.shellgate.interceptor.internal;

import java.util.List;

/**
 * What the judge is asked about a process: a command line, its dialect and, for a shell's
 * {@code -c} script, its positional parameters.
 *
 * @param command the command line
 * @param dialect {@code bash}, {@code zsh}, {@code sh}, {@code powershell} or {@code cmd}
 * @param positional {@code $0 $1...}, or null when not known
 * @param argv for a program started without a shell, the argument vector with {@code argv[0]}
 *     replaced by the file that runs: the judge takes these exact words ({@code command} is them
 *     quoted, for a judge server older than the field); null for a script
 */
record JudgeLine(String command, String dialect, List<String> positional, List<String> argv) {

    /** A script in a dialect. */
    JudgeLine(String command, String dialect, List<String> positional) {
        this(command, dialect, positional, null);
    }
}
