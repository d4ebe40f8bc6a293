package io.shellgate.judge;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A command line to judge and the environment it would run in.
 *
 * @param command the command line, exactly as the shell would receive it
 * @param dialect the language it is written in
 * @param cwd the directory it would run in
 * @param env the complete live environment it would run with ({@code PATH} decides what names
 *     resolve to)
 * @param positional the shell's positional parameters ({@code $1}...), when known; null when
 *     they are not known
 * @param freshShell whether the line runs in a new shell, so that every variable not in
 *     {@code env} is unset; false for a long-lived session whose shell variables are not known
 */
public record JudgeRequest(
        String command, Dialect dialect, Path cwd, Map<String, String> env, List<String> positional, boolean freshShell) {

    public JudgeRequest {
        Objects.requireNonNull(command, "command");
        Objects.requireNonNull(dialect, "dialect");
        Objects.requireNonNull(cwd, "cwd");
        env = Map.copyOf(env);
        positional = positional == null ? null : List.copyOf(positional);
    }

    /** A line for a fresh shell with unknown positional parameters. */
    public JudgeRequest(String command, Dialect dialect, Path cwd, Map<String, String> env) {
        this(command, dialect, cwd, env, null, true);
    }

    /** A request in the process's own environment and working directory. */
    public static JudgeRequest of(String command, Dialect dialect) {
        return new JudgeRequest(command, dialect, Path.of("").toAbsolutePath(), System.getenv());
    }
}
