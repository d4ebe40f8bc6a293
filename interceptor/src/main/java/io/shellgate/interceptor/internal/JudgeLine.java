package io.shellgate.interceptor.internal;

import java.util.List;

/**
 * What the judge is asked about a process: a bash command line, and for a program started with an
 * argument vector, that vector.
 *
 * @param command the command line: the vector's words quoted for a shell (what logs and prompts
 *     show, and what a judge server older than the {@code argv} field judges), followed by the
 *     redirections of any files on the process's standard streams
 * @param argv the argument vector with {@code argv[0]} replaced by the file that runs: the judge
 *     takes these exact words; null when {@code command} must be judged as a script (it has
 *     redirections)
 */
record JudgeLine(String command, List<String> argv) {}
