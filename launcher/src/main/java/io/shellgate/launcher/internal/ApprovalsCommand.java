package io.shellgate.launcher.internal;

import io.shellgate.launcher.ExitCode;
import io.shellgate.launcher.internal.person.Watcher;
import io.shellgate.launcher.internal.pty.UserTerminal;
import io.shellgate.launcher.internal.pty.os.Platform;
import io.shellgate.reviewer.ApprovalDesk;
import java.io.IOException;
import java.io.PrintWriter;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code shellgate approvals --watch}: the person who answers asks, from a terminal of their own. */
@Command(name = "approvals", mixinStandardHelpOptions = true,
        description = {"Watches for commands that need a person's review, shows each as it comes (who asked, where,",
            "the command, why) and reads your answer: y once, s always in this session, p always in this project,",
            "n refuse. While it runs, such commands wait for you (up to the review time-out); while nobody watches",
            "and no terminal can be asked, they are refused at once. Run it in a terminal of your own, outside the",
            "agent: an agent's commands may not run it, and answers come only from this terminal's keyboard."},
        footer = {"", "Exit code: 0 when you stop watching; 4 when it cannot watch (no terminal, another watcher)."})
public final class ApprovalsCommand implements Callable<Integer> {

    @Option(names = "--watch", description = "Watch and answer (the default; the name says what it does).")
    boolean watch;

    @Parameters(arity = "0..*", hidden = true)
    List<String> rest;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        PrintWriter err = spec.commandLine().getErr();
        if (rest != null && !rest.isEmpty()) {
            err.println("shellgate approvals: answers are given only on the terminal of shellgate approvals --watch, one key"
                    + " per ask; there is no command that answers one (an agent could run it)");
            return ExitCode.USAGE.code();
        }
        if ("1".equals(System.getenv("SHELLGATE_WRAPPED"))) {
            // a terminal of an agent's session: the agent's commands could be the ones watching
            err.println("shellgate approvals: this runs inside an agent started by shellgate wrap; watch from a terminal of"
                    + " your own, outside the agent");
            return ExitCode.ERROR.code();
        }
        UserTerminal terminal = Platform.userTerminal();
        if (terminal == null || System.console() == null || !System.console().isTerminal()) {
            err.println("shellgate approvals: needs a terminal on standard input and output: your answers are read from its"
                    + " keyboard");
            return ExitCode.ERROR.code();
        }
        String by = System.getProperty("user.name", "?");
        try (ApprovalDesk desk = ApprovalDesk.open(System.getenv())) {
            Thread restore = new Thread(() -> {
                terminal.restore();
                desk.close();
            }, "shellgate-watch-restore");
            Runtime.getRuntime().addShutdownHook(restore);
            terminal.enterRaw();
            try {
                new Watcher(terminal, desk, by).run();
            } finally {
                terminal.restore();
            }
            return ExitCode.ALLOW.code();
        } catch (IOException e) {
            err.println("shellgate approvals: " + e.getMessage());
            return ExitCode.ERROR.code();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return ExitCode.ERROR.code();
        }
    }
}
