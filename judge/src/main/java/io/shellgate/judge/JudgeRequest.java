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
 * @param argv for a program started without a shell ({@link #ofArgv}), its exact argument vector,
 *     judged as one simple command of exactly these words; {@code command} is then those words
 *     quoted for display and for the raw-text backstop. Null for a command line.
 */
public record JudgeRequest(String command, Dialect dialect, Path cwd, Map<String, String> env, List<String> positional,
        boolean freshShell, List<String> argv) {

    public JudgeRequest {
        Objects.requireNonNull(dialect, "dialect");
        Objects.requireNonNull(cwd, "cwd");
        if (argv != null) {
            argv = List.copyOf(argv);
            if (argv.isEmpty() || !dialect.isPosix()) {
                throw new IllegalArgumentException("an argument vector needs a program and a POSIX dialect");
            }
            command = ArgvText.line(argv);
        }
        Objects.requireNonNull(command, "command");
        env = Map.copyOf(env);
        positional = positional == null ? null : List.copyOf(positional);
    }

    /** A command line. */
    public JudgeRequest(
            String command, Dialect dialect, Path cwd, Map<String, String> env, List<String> positional, boolean freshShell) {
        this(command, dialect, cwd, env, positional, freshShell, null);
    }

    /**
     * A program started directly with this argument vector (no shell reads it), in {@code cwd}
     * with {@code env}: {@code argv[0]} should be the file that will run.
     */
    public static JudgeRequest ofArgv(List<String> argv, Path cwd, Map<String, String> env) {
        return new JudgeRequest(null, Dialect.BASH, cwd, env, List.of(), true, argv);
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
