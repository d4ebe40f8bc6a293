package io.shellgate.launcher.internal.session;

import io.shellgate.judge.Dialect;
import io.shellgate.judge.JudgeRequest;
import io.shellgate.launcher.internal.cli.ExitCode;
import io.shellgate.launcher.internal.cli.LongLivedDoor;
import io.shellgate.launcher.internal.cli.Refusals;
import io.shellgate.launcher.internal.cli.ShellOption;
import io.shellgate.launcher.internal.shell.ShellChoice;
import io.shellgate.reviewer.model.EntryPoint;
import io.shellgate.reviewer.config.GateConfig;
import io.shellgate.reviewer.Gatekeeper;
import io.shellgate.reviewer.model.Origin;
import io.shellgate.reviewer.People;
import io.shellgate.reviewer.Result;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/**
 * A guarded stdin session: commands are read from standard input until each is syntactically
 * complete, judged against the shell's live working directory and environment, and only allowed
 * ones reach the one persistent real shell. A refused command is answered on standard error (and
 * leaves {@code $?} at 126); the shell never sees it.
 */
@Command(name = "__session", hidden = true)
public final class SessionCommand implements Callable<Integer> {

    @Option(names = "--shell")
    String shell;

    @Parameters(arity = "0..*")
    List<String> flags = new ArrayList<>();

    @Spec
    CommandSpec spec;

    private final InputStream input;

    public SessionCommand(InputStream input) {
        this.input = input;
    }

    @Override
    public Integer call() {
        Map<String, String> env = LongLivedDoor.start();
        PrintWriter err = spec.commandLine().getErr();
        Path start = Path.of("").toAbsolutePath();
        // the session's gate is configured once, by the environment it was started with: what the
        // shell's commands later export or unset changes what they see, never the gate
        Gatekeeper gate = Gatekeeper.of(GateConfig.of(env, null));
        ShellChoice sh;
        switch (ShellOption.choose("shellgate", shell, gate, start, env, err)) {
            case ShellOption.Chosen.Shell c -> sh = c.choice();
            case ShellOption.Chosen.Failed f -> {
                return f.exitCode();
            }
        }
        if (!sh.dialect().isPosix()) {
            err.println("shellgate: stdin sessions need a POSIX shell; " + sh.path() + " is " + sh.dialect().id());
            return ExitCode.ERROR.code();
        }
        Path cwd = start;
        Completeness completeness = new Completeness(sh.path(), sh.dialect());
        try (ShellSession session = new ShellSession(sh.path(), flags, env, cwd)) {
            ShellSession.State state = session.state();
            String sessionId = System.getenv().getOrDefault("SHELLGATE_SESSION", "stdin-" + java.util.UUID.randomUUID());
            Origin origin = new Origin(EntryPoint.STDIN_SESSION, ProcessHandle.current().pid(), sh.path(), sessionId);
            if (state == null) {
                return session.exitStatus();
            }
            BufferedReader in = new BufferedReader(new InputStreamReader(input, StandardCharsets.UTF_8));
            StringBuilder pending = new StringBuilder();
            String line;
            while ((line = in.readLine()) != null || !pending.isEmpty()) {
                if (line != null) {
                    pending.append(line).append('\n');
                    if (completeness.incomplete(pending.toString())) {
                        continue;
                    }
                }
                String command = pending.toString();
                pending.setLength(0);
                if (command.isBlank()) {
                    if (line == null) {
                        break;
                    }
                    continue;
                }
                JudgeRequest request = new JudgeRequest(command, sh.dialect(), state.cwd(), state.env(), null, false);
                Result result = gate.decide(request, origin, People.terminal("/dev/tty"));
                ShellSession.State next;
                err.print(Refusals.lines(result));
                err.flush();
                if (result instanceof Result.Runs) {
                    next = session.run(command);
                } else {
                    next = session.run("(exit 126)");
                }
                if (next == null) {
                    return session.exitStatus();
                }
                state = next;
                if (line == null) {
                    break;
                }
            }
            session.close();
            return session.exitStatus();
        } catch (IOException e) {
            err.println("shellgate: the session failed: " + e.getMessage());
            return ExitCode.ERROR.code();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return ExitCode.ERROR.code();
        }
    }
}
