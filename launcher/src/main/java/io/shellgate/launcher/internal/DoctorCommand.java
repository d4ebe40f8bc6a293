package io.shellgate.launcher.internal;

import io.shellgate.launcher.internal.cli.ExitCode;
import io.shellgate.launcher.internal.cli.PolicyOptions;
import io.shellgate.launcher.internal.files.Directories;
import io.shellgate.launcher.internal.server.RunDir;
import io.shellgate.launcher.internal.wrap.WrapSession;
import java.io.IOException;
import io.shellgate.launcher.internal.server.ServerClient;
import io.shellgate.launcher.internal.shell.ShellChoice;
import io.shellgate.launcher.internal.shell.ShellResolver;
import io.shellgate.rules.Policy;
import io.shellgate.rules.PolicyException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/** {@code shellgate doctor}: what shellgate would use here, and whether it works. */
@Command(name = "doctor", mixinStandardHelpOptions = true,
        description = {"Shows the shell shellgate runs commands with and why, the policy files in effect, the native",
            "libraries, the judge server's state, the Java runtime, the wrap layer, and for each agent found here (its",
            "program on PATH or its settings folder): whether shellgate's hook or plugin is in its user and project",
            "settings, whether the hook fails open or closed, whether the file changed since shellgate setup wrote it,",
            "and whether shellgate wrap sees the agent's shells."},
        footer = {"", "Exit codes: 0 everything works, 3 the policy is invalid, 4 something else needs attention."})
public final class DoctorCommand implements Callable<Integer> {

    @Option(names = "--shell", paramLabel = "SHELL", description = "The shell --shell would choose.")
    String shell;

    @Option(names = "--policy", paramLabel = "FILE", description = "A policy file on top of the others.")
    Path policy;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        int code = ExitCode.ALLOW.code();
        PolicyOptions options = new PolicyOptions();
        options.policy = policy;
        Path cwd = Path.of("").toAbsolutePath();
        Policy p = null;
        PolicyException invalid = null;
        try {
            p = options.load(cwd);
        } catch (PolicyException e) {
            invalid = e;
        }
        Optional<ShellChoice> chosen = new ShellResolver(ShellResolver.Host.current(System.getenv()))
                .resolve(shell, p == null ? null : p.settings().shell(), System.getenv("SHELLGATE_LAUNCHER"));
        out.println("shell:    " + chosen.map(c -> c.path() + " (" + c.dialect().id() + ", chosen by " + c.why() + ")")
                .orElse(shell != null ? "--shell " + shell + " is not an executable file or a program on PATH"
                        : "none found (tried $SHELLGATE_SHELL, the policy's shell setting, $SHELL, zsh, bash, sh)"));
        out.println("          fallback order: --shell, $SHELLGATE_SHELL, the policy's settings.shell, $SHELL (never"
                + " shellgate itself), zsh, bash, sh; on Windows Git Bash, pwsh, powershell, %ComSpec%");
        if (chosen.isEmpty()) {
            code = ExitCode.ERROR.code();
        }
        try {
            if (invalid != null) {
                throw invalid;
            }
            out.println("policy:   " + p.readOnly().size() + " read-only commands, " + p.wrappers().size() + " wrappers, "
                    + p.rules().size() + " rules");
            p.sources().forEach(s -> out.println("          " + s));
            p.notices().forEach(n -> out.println("          notice: " + n));
            Fleet.lines(p.fleet()).forEach(l -> out.println("managed:  " + l));
            Fleet.provenance(p).forEach(l -> out.println("          " + l));
            io.shellgate.reviewer.AuditExport.status(p, System.getenv()).forEach(l -> out.println("export:   " + l));
            options.judge(cwd);
        } catch (PolicyException e) {
            out.println("policy:   INVALID");
            e.problems().forEach(pr -> out.println("          " + pr));
            code = ExitCode.POLICY.code();
        }
        try {
            io.shellgate.judge.Judges.defaults().judge(io.shellgate.judge.JudgeRequest.of("true", io.shellgate.judge.Dialect.BASH));
            out.println("natives:  tree-sitter runtime and bash grammar loaded from the jars, extracted to "
                    + io.shellgate.rules.Places.cache(System.getenv()).resolve("native"));
        } catch (RuntimeException | Error e) {
            out.println("natives:  FAILED: " + e);
            code = ExitCode.ERROR.code();
        }
        RunDir run = RunDir.of(System.getenv());
        String server;
        String distrust = Files.isDirectory(run.dir()) ? run.problem() : null;
        if (distrust != null) {
            server = "NOT BELIEVED: " + distrust + "; clients judge in a JVM of their own";
        } else if (Files.isRegularFile(run.port())) {
            server = ServerClient.ping(run).map(pid -> "running (pid " + pid + ")").orElse("not answering (stale files)");
        } else {
            server = "not running (clients start it on demand)";
        }
        out.println("server:   " + server + " in " + run.dir());
        out.println("java:     " + Runtime.version() + " at " + System.getProperty("java.home"));
        out.println("wrap:     " + wrapLayer());
        out.println("hooks:    " + hookCommand());
        java.util.List<String> agents = AgentReport.lines(System.getenv(), cwd);
        for (int i = 0; i < agents.size(); i++) {
            out.println((i == 0 ? "agents:   " : "          ") + agents.get(i));
        }
        return code;
    }

    /** The command an agent's hook settings should run, from the launcher's folder. */
    static String hookCommand() {
        String launcher = System.getenv("SHELLGATE_LAUNCHER");
        if (launcher == null || !launcher.startsWith("/")) {
            return "shellgate-hook AGENT, beside the launcher (shellgate hook --help shows each agent's settings)";
        }
        Path client = Path.of(launcher).resolveSibling("shellgate-hook");
        if (Files.isRegularFile(client) && Files.isExecutable(client)) {
            return client + " AGENT (shellgate hook --help shows each agent's settings)";
        }
        return "bash " + launcher + " hook AGENT (there is no " + client
                + ": the build makes it on Linux where it finds a C compiler; it answers the same without starting bash)";
    }

    /** Which layer {@code shellgate wrap} would use here, found by making (and removing) a session. */
    private static String wrapLayer() {
        String launcher = System.getenv("SHELLGATE_LAUNCHER");
        Path temp = null;
        try {
            temp = Files.createTempDirectory("shellgate-doctor");
            try (WrapSession probe = WrapSession.create(temp.resolve("run"), null,
                    launcher == null ? "/usr/local/bin/shellgate" : launcher, null, System.getenv(), Path.of("").toAbsolutePath())) {
                return probe.layer().id() + " layer (" + probe.why() + ")\n          " + probe.layer().reach();
            }
        } catch (IOException | RuntimeException e) {
            return "cannot be set up here: " + e.getMessage();
        } finally {
            if (temp != null) {
                try {
                    Directories.deleteTree(temp);
                } catch (IOException e) {
                    // a temporary directory left behind is not worth a doctor's failure
                }
            }
        }
    }
}
