package io.shellgate.launcher.internal;

import io.shellgate.launcher.internal.cli.ExitCode;
import io.shellgate.launcher.internal.cli.PolicyOptions;
import io.shellgate.launcher.internal.server.RunDir;
import io.shellgate.launcher.internal.server.ServerClient;
import io.shellgate.launcher.internal.wrap.KnownAgents;
import io.shellgate.launcher.internal.wrap.WrapLayer;
import io.shellgate.launcher.internal.wrap.WrapSession;
import io.shellgate.reviewer.config.GateConfig;
import io.shellgate.reviewer.Gatekeeper;
import io.shellgate.launcher.internal.shell.ShellChoice;
import io.shellgate.launcher.internal.shell.ShellResolver;
import io.shellgate.rules.PolicyException;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code shellgate wrap -- AGENT [ARGS...]}: runs an existing agent so that every shell its process
 * tree starts goes through shellgate, however the shell is found: on Linux in a private mount
 * namespace where each shell file is covered by an entry of shellgate's, else (and on top) through
 * entries first on {@code PATH} and {@code $SHELL}. The terminal is passed through and the agent's
 * exit code returned.
 */
@Command(name = "wrap", mixinStandardHelpOptions = true,
        description = {"Runs an agent so that every shell it starts goes through shellgate: by name, PATH, $SHELL, an",
            "absolute path (/bin/bash, /usr/bin/sh) or the login shell. On Linux with bubblewrap (bwrap), the agent runs",
            "in a private mount namespace where each shell file is covered by an entry that sends it to shellgate's",
            "drop-in shell; elsewhere only shells found by name on PATH and through $SHELL are caught (see --layer).",
            "A shell started inside a command the gate already let run (a script's #!, make, npm test, git hooks)",
            "carries the session's pass and is not judged again; every shell the agent itself starts is judged.",
            "AGENT itself starts as typed, also when it is a shell script or a shim (pyenv, asdf, rbenv: a script whose",
            "first line runs a shell and which execs the agent): only that one process is let through, and only while",
            "it execs; a shell it starts as a new process is judged.",
            "The judge server is started for the session. With --javaagent, the processes a JVM agent starts itself",
            "(ProcessBuilder, Runtime.exec) are gated too."},
        footer = {"", "Exit code: the agent's; 2 without an agent or with a bad option; 4 when it cannot be started."})
public final class WrapCommand implements Callable<Integer> {

    @Parameters(paramLabel = "AGENT", arity = "1..*", description = "The agent and its arguments.")
    List<String> agent;

    @Option(names = "--layer", paramLabel = "LAYER", defaultValue = "auto",
            description = {"auto (default): the namespace where bubblewrap works, else PATH entries, saying why;",
                "namespace: the namespace or nothing (exit 4); path: PATH entries and $SHELL only."})
    String layer;

    @Option(names = "--agent", paramLabel = "AGENT",
            description = {"The agent, whose own wrapper texts around each command (and start-up probes) are recognised",
                "exactly and taken off: claude-code, gemini-cli, codex, qwen-code, or none. Default: found from the",
                "agent's command (claude, gemini, codex, qwen)."})
    String agentName;

    @Option(names = "--javaagent", paramLabel = "JAR", arity = "0..1", fallbackValue = "",
            description = {"Add -javaagent:JAR to JAVA_TOOL_OPTIONS in the agent's environment, so that every JVM it",
                "starts (itself, if it is one) judges the processes it starts. JAR defaults to $SHELLGATE_AGENT_JAR,",
                "else shellgate-agent.jar next to the launcher. Every JVM the agent runs then carries it, build",
                "tools' forked JVMs included; off by default for that reason."})
    String javaAgent;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        PrintWriter err = spec.commandLine().getErr();
        String self = System.getenv("SHELLGATE_LAUNCHER");
        if (self == null) {
            err.println("shellgate wrap: run it through the shellgate launcher script, which its shell entries start");
            return ExitCode.ERROR.code();
        }
        WrapLayer wanted = switch (layer) {
            case "auto" -> null;
            case "namespace" -> WrapLayer.NAMESPACE;
            case "path" -> WrapLayer.PATH;
            default -> null;
        };
        if (wanted == null && !layer.equals("auto")) {
            err.println("shellgate wrap: --layer must be auto, namespace or path, not '" + layer + "'");
            return ExitCode.USAGE.code();
        }
        ProcessBuilder pb = new ProcessBuilder(agent).inheritIO();
        Map<String, String> env = pb.environment();
        env.remove("SHELLGATE_LAUNCHER");
        // the agent itself never carries a pass: only the commands the gate lets run do
        env.remove(WrapSession.PASS);
        String configured;
        try {
            configured = Gatekeeper.of(GateConfig.of(env, null)).policy(Path.of("").toAbsolutePath()).settings().shell();
        } catch (PolicyException e) {
            return PolicyOptions.reportInvalid(err, "shellgate wrap: the policy cannot be used:", e);
        }
        Optional<ShellChoice> real = new ShellResolver(ShellResolver.Host.current(env)).resolve(null, configured, self);
        if (real.isEmpty()) {
            err.println("shellgate wrap: no shell found to run the agent's commands (tried $SHELLGATE_SHELL, $SHELL, zsh, bash, sh)");
            return ExitCode.ERROR.code();
        }
        String known = agentName != null ? agentName : KnownAgents.of(agent).orElse("none");
        if (!KnownAgents.IDS.contains(known) && !known.equals("none")) {
            err.println("shellgate wrap: --agent must be one of " + String.join(", ", KnownAgents.IDS) + " or none, not '" + known + "'");
            return ExitCode.USAGE.code();
        }
        Path cwd = Path.of("").toAbsolutePath();
        String problem = startable(agent.getFirst(), env.get("PATH"), cwd);
        if (problem != null) {
            err.println("shellgate wrap: cannot start " + agent.getFirst() + ": " + problem);
            return ExitCode.ERROR.code();
        }
        if (javaAgent != null) {
            problem = addJavaAgent(env, self);
            if (problem != null) {
                err.println("shellgate wrap: --javaagent: " + problem);
                return ExitCode.USAGE.code();
            }
        }
        WrapSession session;
        try {
            session = WrapSession.create(RunDir.of(System.getenv()).dir(), wanted, Path.of(self).toAbsolutePath().toString(),
                    known.equals("none") ? null : known, env, cwd);
        } catch (IOException | IllegalStateException e) {
            err.println("shellgate wrap: " + e.getMessage());
            return ExitCode.ERROR.code();
        }
        err.println("shellgate wrap: " + session.layer().id() + " layer (" + session.why() + "): " + session.layer().reach());
        env.put("SHELLGATE_SHELL", real.get().path());
        // "always for this session" answers last as long as this run of the agent
        env.putIfAbsent("SHELLGATE_SESSION", "wrap-" + java.util.UUID.randomUUID());
        if (session.layer() == WrapLayer.PATH) {
            // in the namespace $SHELL's own file is covered; without it, $SHELL must name an entry
            String name = Path.of(real.get().path()).getFileName().toString();
            env.put("SHELL", session.bin().resolve(Files.isRegularFile(session.bin().resolve(name)) ? name : "bash").toString());
        }
        String path = env.get("PATH");
        env.put("PATH", session.bin() + (path == null || path.isEmpty() ? "" : ":" + path));
        env.put("SHELLGATE_WRAPPED", "1");
        if (!startServer(self, RunDir.of(System.getenv()))) {
            err.println("shellgate wrap: the judge server did not answer within 30 s; commands are judged by a JVM each");
        }
        keepServer(self);
        pb.command(session.command(cwd, agent));
        try {
            Process p = pb.start();
            // when shellgate wrap itself is told to stop, the agent is told too
            Thread stopAgent = new Thread(() -> {
                p.destroy();
                close(session, err);
            }, "shellgate-wrap-stop");
            Runtime.getRuntime().addShutdownHook(stopAgent);
            int code = p.waitFor();
            Runtime.getRuntime().removeShutdownHook(stopAgent);
            return code;
        } catch (IOException e) {
            err.println("shellgate wrap: cannot start " + agent.getFirst() + ": " + e.getMessage());
            return ExitCode.ERROR.code();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return ExitCode.ERROR.code();
        } finally {
            close(session, err);
        }
    }

    /** Why the agent's program cannot be started, as the namespace would only say after it was made; null if it can. */
    private static String startable(String program, String path, Path cwd) {
        if (program.contains("/")) {
            Path p = cwd.resolve(program);
            return !Files.exists(p) ? "no such file" : Files.isRegularFile(p) && Files.isExecutable(p) ? null : "not an executable file";
        }
        for (String dir : (path == null ? "" : path).split(":")) {
            Path p = cwd.resolve(dir.isEmpty() ? "." : dir).resolve(program);
            if (Files.isRegularFile(p) && Files.isExecutable(p)) {
                return null;
            }
        }
        return "not found on PATH";
    }

    private static void close(WrapSession session, PrintWriter err) {
        try {
            session.close();
        } catch (IOException e) {
            err.println("shellgate wrap: the session's directory could not be removed: " + e.getMessage());
        }
    }

    /** Adds the agent to JAVA_TOOL_OPTIONS; returns what is wrong, or null. */
    private String addJavaAgent(Map<String, String> env, String self) {
        Path jar;
        try {
            jar = AgentJar.find(javaAgent, self, "--javaagent");
        } catch (IllegalArgumentException e) {
            return e.getMessage();
        }
        // the agent starts the judge server through this launcher when the session's has gone
        String option = "-javaagent:" + jar + "=launcher=" + Path.of(self).toAbsolutePath();
        if (option.chars().anyMatch(Character::isWhitespace) || Path.of(self).toAbsolutePath().toString().contains(",")) {
            return "JAVA_TOOL_OPTIONS splits at spaces: " + option + " cannot be passed through it";
        }
        String existing = env.get("JAVA_TOOL_OPTIONS");
        env.put("JAVA_TOOL_OPTIONS", existing == null || existing.isBlank() ? option : existing + " " + option);
        return null;
    }

    /**
     * Starts the server again whenever it has gone (idle, or replaced by a newer jar), from here:
     * a server started from inside the namespace would see root's files owned by nobody there, and
     * trust no program.
     */
    private static void keepServer(String self) {
        RunDir run = RunDir.of(System.getenv());
        Thread keeper = new Thread(() -> {
            while (true) {
                try {
                    Thread.sleep(30_000);
                } catch (InterruptedException e) {
                    return;
                }
                if (ServerClient.ping(run).isEmpty()) {
                    startServer(self, run);
                }
            }
        }, "shellgate-wrap-server");
        keeper.setDaemon(true);
        keeper.start();
    }

    /** Starts the judge server unless one answers, and waits for it; false when none answered in 30 s. */
    private static boolean startServer(String self, RunDir run) {
        if (ServerClient.ping(run).isPresent()) {
            return true;
        }
        try {
            new ProcessBuilder(self, "serve").redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")))
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD).redirectError(ProcessBuilder.Redirect.DISCARD).start();
        } catch (IOException e) {
            // without a server, shellgate -c judges in a JVM of its own
            return false;
        }
        long deadline = System.nanoTime() + 30_000_000_000L;
        while (System.nanoTime() < deadline) {
            if (ServerClient.ping(run).isPresent()) {
                return true;
            }
            try {
                Thread.sleep(50);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            }
        }
        return false;
    }
}
