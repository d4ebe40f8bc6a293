package io.shellgate.launcher.internal;

import io.shellgate.judge.JudgeRequest;
import io.shellgate.judge.Judges;
import io.shellgate.judge.Verdict;
import io.shellgate.launcher.internal.cli.ExitCode;
import io.shellgate.launcher.internal.cli.PolicyOptions;
import io.shellgate.reviewer.Approvals;
import io.shellgate.rules.Policy;
import io.shellgate.rules.PolicyException;
import io.shellgate.rules.Tier;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code shellgate approvals add -- COMMAND}: a person remembers an approval ahead of the ask, as the answer {@code p}
 * would: only from a terminal of their own, outside any agent, and only for a line the judge asks about.
 */
@Command(name = "add", mixinStandardHelpOptions = true,
        description = {"Remembers your approval of a command line for this project, as answering p to its ask would: the",
            "line (paths inside the project written absolute, so relative and absolute are the same command) is approved",
            "in this project and everything under it, in your user policy file, for the policy's review.remember-days",
            "(until revoked when none is set). Only a line the judge asks about can be approved: a denied line never, an",
            "allowed one needs nothing. Run it in a terminal of your own, outside the agent; an agent's commands may not",
            "run it. shellgate approvals list shows the entry, shellgate approvals revoke ID takes it back."},
        footer = {"", "Exit codes: 0 remembered, 2 usage (no command, not a terminal), 3 a policy file does not load,",
            "4 it cannot be written, 20 the line is denied (never approvable)."})
final class AddApprovalCommand implements Callable<Integer> {

    @Mixin
    PolicyOptions options;

    @Parameters(paramLabel = "COMMAND", arity = "1..*", description = "The command line to approve, after --.")
    List<String> command;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        if ("1".equals(System.getenv("SHELLGATE_WRAPPED"))) {
            err.println("shellgate approvals add: this runs inside an agent started by shellgate wrap; approve from a"
                    + " terminal of your own, outside the agent");
            return ExitCode.ERROR.code();
        }
        if (System.console() == null || !System.console().isTerminal()) {
            // a person approves at their keyboard; a pipe or an agent's tool has no terminal
            err.println("shellgate approvals add: needs a terminal on standard input and output: a person approves from"
                    + " a terminal of their own");
            return ExitCode.USAGE.code();
        }
        try {
            Path cwd = options.cwd();
            Policy policy = options.load(cwd);
            String line = String.join(" ", command);
            JudgeRequest request = new JudgeRequest(line, options.dialect(), cwd, System.getenv());
            Verdict v = Judges.create(policy).judge(request);
            if (v.tier() == Tier.DENY) {
                err.println("shellgate approvals add: " + line + " is denied (" + v.primary().rule() + "): "
                        + v.primary().message() + "; a denied line cannot be approved");
                return ExitCode.DENY.code();
            }
            if (v.tier() == Tier.ALLOW) {
                out.println("nothing to approve: " + line + " runs without asking (" + v.primary().rule() + ")");
                return ExitCode.ALLOW.code();
            }
            String by = System.getProperty("user.name", "?") + " (shellgate approvals add)";
            String id = Approvals.remember(System.getenv(), policy, request, by);
            out.println("remembered as " + id + ": " + line + " runs without asking in this project;"
                    + " shellgate approvals revoke " + id + " takes it back");
            return ExitCode.ALLOW.code();
        } catch (PolicyOptions.UsageException e) {
            err.println("shellgate approvals add: " + e.getMessage());
            return ExitCode.USAGE.code();
        } catch (PolicyException e) {
            return PolicyOptions.reportInvalid(err, "shellgate: the policy cannot be used:", e);
        } catch (IOException | IllegalStateException e) {
            err.println("shellgate approvals add: not remembered: " + e.getMessage());
            return ExitCode.ERROR.code();
        }
    }
}
