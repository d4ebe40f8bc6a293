package io.shellgate.launcher.internal.pty;

import io.shellgate.launcher.internal.cli.ExitCode;
import io.shellgate.launcher.internal.cli.LongLivedDoor;
import io.shellgate.launcher.internal.cli.ShellOption;
import io.shellgate.launcher.internal.files.Directories;
import io.shellgate.launcher.internal.pty.os.Platform;
import io.shellgate.launcher.internal.server.RunDir;
import io.shellgate.launcher.internal.session.Completeness;
import io.shellgate.launcher.internal.shell.ShellChoice;
import io.shellgate.launcher.internal.terminal.UserTerminal;
import io.shellgate.reviewer.model.EntryPoint;
import io.shellgate.reviewer.config.GateConfig;
import io.shellgate.reviewer.Gatekeeper;
import io.shellgate.reviewer.model.Origin;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.HashMap;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.function.Predicate;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code shellgate shell}: the interactive guarded shell. The shell chosen by the fallback order
 * runs in a pseudo-terminal behind the proxy, and every line is judged at Enter.
 */
@Command(name = "shell", mixinStandardHelpOptions = true,
        description = {"Starts the real shell (bash, zsh or PowerShell) in a pseudo-terminal and judges every line",
            "typed or pasted at Enter: allowed lines run as typed, denied ones are refused with the reason, and",
            "you are asked about the rest. Also what 'shellgate' with no arguments does on a terminal.",
            "Not on Windows yet (its console is not supported), so not for Git Bash or cmd there."},
        footer = {"", "Exit code: the shell's; 127 when no shell is found; 4 when it cannot start (no terminal)."})
public final class ShellCommand implements Callable<Integer> {

    @Option(names = "--shell", paramLabel = "SHELL", description = "The shell to run (a path or a name on PATH).")
    String shell;

    @Option(names = {"-l", "--login"}, description = "Start it as a login shell.")
    boolean login;

    @Option(names = "--agent-driven", description = {"An agent types into this terminal: never ask here (its keys could answer),",
        "asks go to a person watching with shellgate approvals --watch. Always so under shellgate wrap."})
    boolean agent;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        Map<String, String> env = LongLivedDoor.start();
        PrintWriter err = spec.commandLine().getErr();
        Path cwd = Path.of("").toAbsolutePath();
        // configured once, by the environment this proxy was started with: what the shell exports
        // or unsets later changes what its lines see, never the gate
        GateConfig config = GateConfig.of(env, null);
        if (agent) {
            config = config.withTerminalsNotAsked("an agent types into it (shellgate shell --agent-driven)");
        }
        Gatekeeper gate = Gatekeeper.of(config);
        ShellChoice sh;
        switch (ShellOption.choose("shellgate shell", shell, gate, cwd, env, err)) {
            case ShellOption.Chosen.Shell c -> sh = c.choice();
            case ShellOption.Chosen.Failed f -> {
                return f.exitCode();
            }
        }
        Integration integration = Integrations.forShell(sh);
        if (integration == null) {
            err.println("shellgate shell: " + sh.path() + " (" + sh.why() + ") has no line editor shellgate can hook;"
                    + " choose bash or zsh with --shell or SHELLGATE_SHELL");
            return ExitCode.ERROR.code();
        }
        UserTerminal user = Platform.userTerminal();
        if (user == null) {
            err.println("shellgate shell: the Windows console is not supported yet (the proxy cannot put it in raw mode)");
            return ExitCode.ERROR.code();
        }
        if (System.console() == null || !System.console().isTerminal()) {
            err.println("shellgate shell: needs a terminal on standard input and output; for commands on a pipe, run shellgate -s");
            return ExitCode.ERROR.code();
        }
        Path dir = null;
        try {
            dir = sessionDir(env);
            Path made = dir;
            // a signal ends the JVM without running the finally below
            Runtime.getRuntime().addShutdownHook(new Thread(() -> delete(made), "shellgate-session-dir"));
            Map<String, String> shellEnv = new HashMap<>(env);
            shellEnv.putAll(integration.env(dir, env));
            if (login) {
                shellEnv.put("SHELLGATE_LOGIN", "1");
            }
            String session = "pty-" + UUID.randomUUID();
            Predicate<String> incomplete = sh.dialect().isPosix() ? new Completeness(sh.path(), sh.dialect())::incomplete : s -> false;
            try (HookChannel channel = integration.channel(dir)) {
                integration.install(dir);
                PtyProxy proxy = new PtyProxy(user, Platform.spawner(env));
                return proxy.run(integration.command(sh.path(), dir, login), shellEnv, cwd, channel,
                        (pid, person, voice) -> new LineGate(sh.dialect(), gate, incomplete,
                                new Origin(EntryPoint.PTY, pid, sh.path(), session), person, voice, !agent),
                        (screen, watch) -> integration.editor(cwd, shellEnv, screen, watch));
            }
        } catch (IOException | RuntimeException e) {
            err.println("shellgate shell: cannot run " + sh.path() + " in a pseudo-terminal: " + e.getMessage());
            return ExitCode.ERROR.code();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return ExitCode.ERROR.code();
        } finally {
            delete(dir);
        }
    }

    /** A private directory for the integration's files and channel, in shellgate's own run directory. */
    private static Path sessionDir(Map<String, String> env) throws IOException {
        RunDir run = RunDir.of(env);
        run.create();
        return Files.createDirectory(run.dir().resolve("pty-" + ProcessHandle.current().pid() + "-" + UUID.randomUUID()),
                PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
    }

    private static void delete(Path dir) {
        if (dir == null) {
            return;
        }
        try {
            Directories.deleteTree(dir);
        } catch (IOException e) {
            // a directory left in the private run directory does no harm
        }
    }
}
