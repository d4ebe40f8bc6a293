package io.shellgate.interceptor.internal;

import java.util.List;

/**
 * What the judge is asked about a process: a command line, its dialect and, for a shell's
 * {@code -c} script, its positional parameters.
 *
 * @param command the command line
 * @param dialect {@code bash}, {@code zsh}, {@code sh}, {@code powershell} or {@code cmd}
 * @param positional {@code $0 $1...}, or null when not known
 */
record JudgeLine(String command, String dialect, List<String> positional) {}
