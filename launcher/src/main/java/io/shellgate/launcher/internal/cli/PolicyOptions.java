package io.shellgate.launcher.internal.cli;

import io.shellgate.judge.Dialect;
import io.shellgate.judge.Judge;
import io.shellgate.judge.Judges;
import io.shellgate.launcher.internal.cli.ExitCode;
import io.shellgate.rules.Policy;
import io.shellgate.rules.PolicyException;
import io.shellgate.rules.PolicyLoader;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import picocli.CommandLine.Option;

/** Options shared by the commands that judge: the policy file, the dialect, the working directory. */
public final class PolicyOptions {

    @Option(names = "--policy", paramLabel = "FILE", description = "A policy file applied on top of the default, user and project policies.")
    public Path policy;

    @Option(names = "--dialect", paramLabel = "D", defaultValue = "bash",
            description = "The shell language: bash (default), zsh, sh, powershell, cmd.")
    String dialect;

    @Option(names = "--cwd", paramLabel = "DIR", description = "The directory the command would run in (default: the current one).")
    Path cwd;

    public Dialect dialect() throws UsageException {
        Dialect d = Dialect.parse(dialect);
        if (d == null) {
            throw new UsageException("unknown dialect '" + dialect + "'; use bash, zsh, sh, powershell or cmd");
        }
        return d;
    }

    public Path cwd() throws UsageException {
        Path dir = (cwd == null ? Path.of("") : cwd).toAbsolutePath().normalize();
        if (!Files.isDirectory(dir)) {
            throw new UsageException("--cwd " + cwd + ": no such directory");
        }
        return dir;
    }

    public Policy load(Path dir) throws PolicyException {
        return PolicyLoader.load(PolicyLoader.discover(dir, System.getenv(), policy), System.getenv("HOME"));
    }

    public Judge judge(Path dir) throws PolicyException {
        return Judges.create(load(dir));
    }

    /**
     * Prints a policy's problems, one a line, under {@code heading}; returns the exit code for an
     * unusable policy.
     */
    public static int reportInvalid(PrintWriter err, String heading, PolicyException e) {
        err.println(heading);
        e.problems().forEach(p -> err.println("  " + p));
        return ExitCode.POLICY.code();
    }

    /** A usage problem found after picocli accepted the arguments. */
    public static final class UsageException extends Exception {
        private static final long serialVersionUID = 1L;

        public UsageException(String message) {
            super(message);
        }
    }
}
