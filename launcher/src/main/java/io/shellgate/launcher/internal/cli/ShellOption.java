package io.shellgate.launcher.internal.cli;

import io.shellgate.launcher.internal.cli.PolicyOptions;
import io.shellgate.launcher.internal.shell.ShellChoice;
import io.shellgate.launcher.internal.shell.ShellResolver;
import io.shellgate.reviewer.Gatekeeper;
import io.shellgate.rules.PolicyException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.Map;

/**
 * The shell a command of shellgate runs lines in ({@code shell}, stdin sessions): {@code --shell}, else the policy's
 * {@code settings.shell}, else {@code $SHELLGATE_SHELL}, {@code $SHELL}, zsh, bash, sh; with the error said once,
 * the same way for every command.
 */
public final class ShellOption {

    /** The shell chosen, or the exit code after the error was printed. */
    public sealed interface Chosen {
        record Shell(ShellChoice choice) implements Chosen {}

        record Failed(int exitCode) implements Chosen {}
    }

    private ShellOption() {}

    /**
     * @param who how errors start ({@code "shellgate shell"})
     * @param shell the {@code --shell} value, or null
     * @param env the environment the command was started with
     */
    public static Chosen choose(String who, String shell, Gatekeeper gate, Path cwd, Map<String, String> env, PrintWriter err) {
        String configured;
        try {
            configured = gate.policy(cwd).settings().shell();
        } catch (PolicyException e) {
            return new Chosen.Failed(PolicyOptions.reportInvalid(err, who + ": the policy cannot be used:", e));
        }
        return new ShellResolver(ShellResolver.Host.current(env)).resolve(shell, configured, System.getenv("SHELLGATE_LAUNCHER"))
                .<Chosen>map(Chosen.Shell::new)
                .orElseGet(() -> {
                    err.println(shell != null ? who + ": the shell " + shell + " (--shell) is not an executable file or a program on PATH"
                            : who + ": no shell found (tried $SHELLGATE_SHELL, the policy's shell setting, $SHELL, zsh, bash, sh)");
                    return new Chosen.Failed(127);
                });
    }
}
