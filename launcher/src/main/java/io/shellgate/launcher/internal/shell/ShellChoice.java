package io.shellgate.launcher.internal.shell;

import io.shellgate.judge.Dialect;

/**
 * The shell that runs commands, and why it was chosen.
 *
 * @param path the shell's executable
 * @param dialect the language its command lines are judged in
 * @param why which step of the fallback order chose it ({@code --shell}, {@code $SHELL}...)
 */
public record ShellChoice(String path, Dialect dialect, String why) {}
