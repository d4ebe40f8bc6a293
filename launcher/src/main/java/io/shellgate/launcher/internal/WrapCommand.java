package io.shellgate.launcher.internal;

import io.shellgate.launcher.ExitCode;
import io.shellgate.reviewer.GateConfig;
import io.shellgate.reviewer.Gatekeeper;
import io.shellgate.launcher.internal.shell.ShellChoice;
import io.shellgate.launcher.internal.shell.ShellResolver;
import io.shellgate.rules.PolicyException;
import java.io.IOException;
import java.io.PrintWriter;
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
 * {@code shellgate wrap -- AGENT [ARGS...]}: runs an existing agent so that every shell command
 * it starts through {@code $SHELL} goes through shellgate, with the terminal passed through and
 * the agent's exit code returned.
 */
@Command(name = "wrap", mixinStandardHelpOptions = true,
        description = {"Runs an agent with SHELL pointing at shellgate (its commands run in the shell shellgate would",
            "otherwise choose, given to it as SHELLGATE_SHELL), and the judge server started for the session.",
            "With --javaagent, the processes a JVM agent starts itself (ProcessBuilder, Runtime.exec) are gated too."},
        footer = {"", "Exit code: the agent's; 2 without an agent; 4 when it cannot be started."})
public final class WrapCommand implements Callable<Integer> {

    @Parameters(paramLabel = "AGENT", arity = "1..*", description = "The agent and its arguments.")
    List<String> agent;

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
            err.println("shellgate wrap: run it through the shellgate launcher script, which it points SHELL at");
            return ExitCode.ERROR.code();
        }
        ProcessBuilder pb = new ProcessBuilder(agent).inheritIO();
        Map<String, String> env = pb.environment();
        env.remove("SHELLGATE_LAUNCHER");
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
        env.put("SHELLGATE_SHELL", real.get().path());
        // "always for this session" answers last as long as this run of the agent
        env.putIfAbsent("SHELLGATE_SESSION", "wrap-" + java.util.UUID.randomUUID());
        env.put("SHELL", self);
        env.put("SHELLGATE_WRAPPED", "1");
        if (javaAgent != null) {
            String problem = addJavaAgent(env, self);
            if (problem != null) {
                err.println("shellgate wrap: --javaagent: " + problem);
                return ExitCode.USAGE.code();
            }
        }
        startServer(self);
        try {
            Process p = pb.start();
            // when shellgate wrap itself is told to stop, the agent is told too
            Thread stopAgent = new Thread(p::destroy, "shellgate-wrap-stop");
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

    private static void startServer(String self) {
        try {
            new ProcessBuilder(self, "serve").redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")))
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD).redirectError(ProcessBuilder.Redirect.DISCARD).start();
        } catch (IOException e) {
            // without a server, shellgate -c judges in a JVM of its own
        }
    }
}
