package io.shellgate.launcher.internal;

import io.shellgate.launcher.internal.cli.ExitCode;
import io.shellgate.launcher.internal.gate.Gatekeepers;
import io.shellgate.launcher.internal.server.JudgeServer;
import io.shellgate.launcher.internal.server.RequestHandler;
import io.shellgate.launcher.internal.server.RunDir;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/** {@code shellgate serve}: the judge server (see docs/protocol.md). */
@Command(name = "serve", mixinStandardHelpOptions = true,
        description = {"Runs the judge server: a per-user process that keeps the judge warm for shellgate -c,",
            "stdin sessions and the javaagent. Clients start it on demand; it stops when idle."},
        footer = {"", "Files: the run directory (see 'shellgate doctor') holds server.sock, server.port,",
            "server.token and server.proof (0600) and server.pid. Exit codes: 0 stopped or already running, 4 error."})
public final class ServeCommand implements Callable<Integer> {

    @Option(names = "--idle", paramLabel = "MINUTES", description = "Stop after this many idle minutes (default 30,"
            + " or $SHELLGATE_SERVER_IDLE_SECONDS seconds when that is set).")
    Long idleMinutes;

    @Option(names = "--idle-seconds", paramLabel = "SECONDS", hidden = true)
    Long idleSeconds;

    @Option(names = "--policy", paramLabel = "FILE", description = "A policy file applied on top of the others for every request.")
    Path policy;

    @Spec
    CommandSpec spec;

    /** The idle timeout: --idle-seconds, --idle, $SHELLGATE_SERVER_IDLE_SECONDS, then 30 minutes. */
    private Duration idle() {
        if (idleSeconds != null) {
            return Duration.ofSeconds(Math.max(1, idleSeconds));
        }
        if (idleMinutes != null) {
            return Duration.ofMinutes(Math.max(1, idleMinutes));
        }
        String env = System.getenv("SHELLGATE_SERVER_IDLE_SECONDS");
        if (env != null && env.matches("[0-9]{1,9}")) {
            return Duration.ofSeconds(Math.max(1, Long.parseLong(env)));
        }
        return Duration.ofMinutes(30);
    }

    @Override
    public Integer call() {
        // a process that lives on sends the audit records of the one-shot ones too
        io.shellgate.reviewer.AuditExport.shipFromHere();
        PrintWriter err = spec.commandLine().getErr();
        RunDir run = RunDir.of(System.getenv());
        try {
            run.create();
            try (FileChannel lockFile = FileChannel.open(run.dir().resolve("server.lock"), StandardOpenOption.CREATE,
                    StandardOpenOption.WRITE);
                    FileLock lock = lockFile.tryLock()) {
                if (lock == null) {
                    err.println("shellgate serve: a server is already running for this user (" + run.dir() + ")");
                    return ExitCode.ALLOW.code();
                }
                String self = System.getenv("SHELLGATE_LAUNCHER");
                Gatekeepers gates = new Gatekeepers(policy);
                try (JudgeServer server = new JudgeServer(run, new RequestHandler(gates, self, run.pid()), idle())) {
                    // SIGTERM and SIGINT end the JVM without leaving this block: the files go all the same
                    Thread cleanup = new Thread(server::close, "shellgate-serve-stop");
                    Runtime.getRuntime().addShutdownHook(cleanup);
                    server.start();
                    // the client that started this server judged its command in a JVM of its own, and queued its record
                    gates.forEnvironment(System.getenv()).startExport(Path.of("").toAbsolutePath());
                    server.await();
                    try {
                        Runtime.getRuntime().removeShutdownHook(cleanup);
                    } catch (IllegalStateException e) {
                        // shutting down: the hook closes it
                    }
                }
                return ExitCode.ALLOW.code();
            }
        } catch (IOException e) {
            err.println("shellgate serve: cannot run the server in " + run.dir() + ": " + e.getMessage());
            return ExitCode.ERROR.code();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return ExitCode.ERROR.code();
        }
    }
}
