package io.shellgate.launcher.internal;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.shellgate.judge.Dialect;
import io.shellgate.judge.Judge;
import io.shellgate.judge.JudgeRequest;
import io.shellgate.judge.Reason;
import io.shellgate.judge.Verdict;
import io.shellgate.launcher.internal.cli.ExitCode;
import io.shellgate.launcher.internal.cli.PolicyOptions;
import io.shellgate.launcher.internal.server.BatchLines;
import io.shellgate.launcher.internal.server.VerdictJson;
import io.shellgate.rules.PolicyException;
import io.shellgate.rules.Tier;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/** {@code shellgate check}: the verdict for one command line, or for JSON Lines on standard input. */
@Command(name = "check", mixinStandardHelpOptions = true,
        description = {"Judges a command line: allow, ask or deny.",
            "The command line is one argument (quote it), or everything after --, joined by spaces."},
        footer = {"", "Exit codes: 0 allow, 10 ask, 20 deny, 2 usage error, 3 policy error, 4 other error.",
            "With --batch: 0 when every input line was answered (even with errors), else 2-4.",
            "", "Batch input fields: cmd (required), dialect, cwd, env (the complete environment).",
            "Batch output fields: cmd, tier, reasons[{rule, tier, message, span}], commands; or error."})
public final class CheckCommand implements Callable<Integer> {

    @Mixin
    PolicyOptions options;

    @Option(names = "--json", description = "Print the verdict as one JSON object.")
    boolean json;

    @Option(names = "--batch", description = "Read JSON Lines on standard input, write one JSON line per input line.")
    boolean batch;

    @Parameters(paramLabel = "COMMAND", arity = "0..*", description = "The command line to judge.")
    List<String> command;

    @Spec
    CommandSpec spec;

    private final InputStream input;

    public CheckCommand(InputStream input) {
        this.input = input;
    }

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        try {
            Path cwd = options.cwd();
            Dialect dialect = options.dialect();
            if (batch) {
                if (command != null && !command.isEmpty()) {
                    throw new PolicyOptions.UsageException("--batch reads commands from standard input; give no COMMAND");
                }
                return batch(options.judge(cwd), cwd, dialect, input, out);
            }
            if (command == null || command.isEmpty()) {
                throw new PolicyOptions.UsageException("no command to check; usage: shellgate check [OPTIONS] -- COMMAND");
            }
            String line = String.join(" ", command);
            io.shellgate.rules.Policy policy = options.load(cwd);
            JudgeRequest request = new JudgeRequest(line, dialect, cwd, System.getenv());
            Verdict v = io.shellgate.judge.Judges.create(policy).judge(request);
            if (json) {
                ObjectNode node = VerdictJson.of(line, v);
                io.shellgate.reviewer.Approvals.covering(policy, System.getenv("HOME"), request, v)
                        .ifPresent(a -> node.put("approved_by", a.id()));
                out.println(node);
            } else {
                out.println(v.tier().id() + ": " + line);
                for (Reason r : v.bySeverity()) {
                    if (r.tier() != Tier.ALLOW || v.tier() == Tier.ALLOW) {
                        out.println("  " + r.tier().id() + " (" + r.rule() + "): " + r.message());
                    }
                }
                approval(policy, request, v).ifPresent(out::println);
            }
            return exit(v.tier()).code();
        } catch (PolicyOptions.UsageException e) {
            err.println("shellgate check: " + e.getMessage());
            return ExitCode.USAGE.code();
        } catch (PolicyException e) {
            return PolicyOptions.reportInvalid(err, "shellgate: the policy cannot be used:", e);
        } catch (IOException e) {
            err.println("shellgate check: cannot read standard input: " + e.getMessage());
            return ExitCode.ERROR.code();
        }
    }

    /**
     * The line saying that a remembered approval would let an asked line run, with the approval's id and file; the
     * exit code stays the judge's (10), since the approval is the review's answer, not the judge's.
     */
    static java.util.Optional<String> approval(io.shellgate.rules.Policy policy, JudgeRequest request, Verdict v) {
        return io.shellgate.reviewer.Approvals.covering(policy, System.getenv("HOME"), request, v)
                .map(a -> "  approved by " + a.id() + " (" + a.location().file() + "): would run without asking");
    }

    static ExitCode exit(Tier tier) {
        return switch (tier) {
            case ALLOW -> ExitCode.ALLOW;
            case ASK -> ExitCode.ASK;
            case DENY -> ExitCode.DENY;
        };
    }

    /**
     * {@code check --batch} with no option but {@code --cwd} and {@code --dialect}, as {@link #call}
     * runs it, for a caller that has no command line model ({@code Main}'s quick start).
     */
    public static int batch(Path cwd, Dialect dialect, InputStream input, PrintWriter out, PrintWriter err) {
        try {
            PolicyOptions options = new PolicyOptions();
            return batch(options.judge(cwd), cwd, dialect, input, out);
        } catch (PolicyException e) {
            return PolicyOptions.reportInvalid(err, "shellgate: the policy cannot be used:", e);
        } catch (IOException e) {
            err.println("shellgate check: cannot read standard input: " + e.getMessage());
            return ExitCode.ERROR.code();
        }
    }

    private static int batch(Judge judge, Path defaultCwd, Dialect defaultDialect, InputStream input, PrintWriter out)
            throws IOException {
        new BatchLines(judge, defaultCwd, defaultDialect, System.getenv()).run(input, out, THREADS);
        return ExitCode.ALLOW.code();
    }

    /** Lines are judged on every core; {@code SHELLGATE_BATCH_THREADS} sets another number (1: one at a time). */
    static final int THREADS = threads(System.getenv("SHELLGATE_BATCH_THREADS"));

    static int threads(String given) {
        if (given != null && given.matches("[1-9][0-9]{0,2}")) {
            return Integer.parseInt(given);
        }
        return Runtime.getRuntime().availableProcessors();
    }
}
