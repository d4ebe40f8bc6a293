package io.shellgate.launcher.internal;

import io.shellgate.launcher.internal.cli.ExitCode;
import io.shellgate.launcher.internal.cli.PolicyOptions;
import io.shellgate.launcher.internal.person.Watcher;
import io.shellgate.launcher.internal.pty.os.Platform;
import io.shellgate.launcher.internal.terminal.UserTerminal;
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
        subcommands = {ApprovalsCommand.ListApprovals.class, AddApprovalCommand.class, ApprovalsCommand.RevokeApproval.class},
        description = {"Watches for commands that need a person's review, shows each as it comes (who asked, where,",
            "the command, why) and reads your answer: y once, s always in this session, p always in this project,",
            "n refuse. While it runs, such commands wait for you (up to the review time-out); while nobody watches",
            "and no terminal can be asked, they are refused at once. Run it in a terminal of your own, outside the",
            "agent: an agent's commands may not run it, and answers come only from this terminal's keyboard."},
        footer = {"", "shellgate approvals list shows the remembered answers (\"always\") and Claude Code's own allow rules,",
            "shellgate approvals add -- COMMAND remembers one ahead of its ask, shellgate approvals revoke ID takes one back.",
            "", "Exit code: 0 when you stop watching; 4 when it cannot watch (no terminal, another watcher)."})
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

    /** {@code shellgate approvals list}: every remembered approval in effect here, with its scope and its uses. */
    @Command(name = "list", mixinStandardHelpOptions = true,
            description = {"Lists the remembered approvals in effect in this directory: each one's id, the file it is in, what it",
                "approves (an exact command line, or a program with its limits), where (a project and everything under",
                "it, or everywhere), since when and by whom, when it expires, and how many decisions of the audit log",
                "it made."},
            footer = {"", "Exit codes: 0, 3 when a policy file does not load."})
    static final class ListApprovals implements Callable<Integer> {

        @picocli.CommandLine.Mixin
        PolicyOptions options;

        @Spec
        CommandSpec spec;

        @Override
        public Integer call() {
            PrintWriter out = spec.commandLine().getOut();
            PrintWriter err = spec.commandLine().getErr();
            try {
                io.shellgate.rules.Policy policy = options.load(options.cwd());
                List<io.shellgate.rules.Approval> approvals = policy.review().approvals();
                if (approvals.isEmpty()) {
                    out.println("no remembered approvals (answer an ask with s or p, run shellgate approvals add, or write an"
                            + " [[approved]] entry)");
                }
                java.util.Map<String, Integer> uses = io.shellgate.reviewer.Approvals.uses(System.getenv(), approvals);
                for (io.shellgate.rules.Approval a : approvals) {
                    out.println(a.id() + "  (" + a.layer().name().toLowerCase(java.util.Locale.ROOT) + ": " + a.location().file()
                            + (a.location().line() > 0 ? ":" + a.location().line() : "") + ")");
                    out.println("  approves: " + (a.exact() ? "exactly " + a.command() : scope(a)));
                    out.println("  where:    " + (a.project() == null ? "everywhere" : a.project() + " and everything under it"));
                    if (!a.note().isEmpty()) {
                        out.println("  note:     " + a.note());
                    }
                    out.println("  expires:  " + (a.expires() == null ? "never" : a.expires()
                            + (a.activeAt(java.time.Instant.now()) ? "" : " (expired: no longer counts)")));
                    out.println("  used:     " + uses.getOrDefault(a.id(), 0) + " times (decisions in the audit log)");
                }
                claudeCodeRules(out, policy, options.cwd());
                return ExitCode.ALLOW.code();
            } catch (PolicyOptions.UsageException e) {
                err.println("shellgate approvals list: " + e.getMessage());
                return ExitCode.USAGE.code();
            } catch (io.shellgate.rules.PolicyException e) {
                return PolicyOptions.reportInvalid(err, "shellgate: the policy cannot be used:", e);
            } catch (IOException e) {
                err.println("shellgate approvals list: cannot read the audit log: " + e.getMessage());
                return ExitCode.ERROR.code();
            }
        }

        /**
         * Claude Code's own Bash allow rules, which its hook leaves an ask to: read-only here, with the file each is in
         * (its "Yes, and don't ask again" writes them to the project's .claude/settings.local.json).
         */
        private static void claudeCodeRules(PrintWriter out, io.shellgate.rules.Policy policy, java.nio.file.Path cwd) {
            List<io.shellgate.launcher.internal.hook.ClaudeRules.Rule> rules = io.shellgate.launcher.internal.hook.ClaudeRules
                    .read(io.shellgate.launcher.internal.hook.ClaudeRules.settingsFiles(System.getenv(), cwd));
            if (rules.isEmpty()) {
                return;
            }
            out.println();
            out.println("Claude Code's own allow rules (read-only here; " + (policy.review().agentAllowRules()
                    ? "an ask one covers is left to Claude Code in its default, plan and dontAsk modes"
                    : "not honoured: the policy says review.agent-allow-rules = false") + "):");
            if (policy.review().agentDialog()) {
                out.println("  (review.agent-dialog is on: Claude Code's own dialog may be shown for an ask, and its \"don't ask"
                        + " again\" adds a rule here)");
            }
            for (io.shellgate.launcher.internal.hook.ClaudeRules.Rule r : rules) {
                out.println("  " + r.rule() + "  (" + r.file() + ")" + (io.shellgate.launcher.internal.hook.ClaudeRules
                        .blanket(r.rule()) ? "  blanket: covers no command for shellgate" : ""));
            }
            out.println("  to undo one, remove it from permissions.allow in its file (or with /permissions in Claude Code)");
        }

        private static String scope(io.shellgate.rules.Approval a) {
            StringBuilder sb = new StringBuilder("commands starting with " + String.join(" ", a.prefix()));
            if (a.maxArgs() != null) {
                sb.append(", at most ").append(a.maxArgs()).append(" more arguments");
            }
            if (!a.argsNone().isEmpty()) {
                sb.append(", no argument like ").append(String.join(" or ", a.argsNone()));
            }
            return sb.toString();
        }
    }

    /** {@code shellgate approvals revoke ID}: takes a remembered approval back out of its file. */
    @Command(name = "revoke", mixinStandardHelpOptions = true,
            description = {"Takes a remembered approval back: removes its [[approved]] entry from the policy file it is in (your",
                "user file or a project's), under the same lock and checks as writing one. The next time, the command",
                "asks again. Approvals of the managed policy are the administrator's to change."},
            footer = {"", "Exit codes: 0 revoked, 2 no approval with that id here, 3 a policy file does not load, 4 other error."})
    static final class RevokeApproval implements Callable<Integer> {

        @picocli.CommandLine.Mixin
        PolicyOptions options;

        @Parameters(paramLabel = "ID", description = "The approval's id, as shellgate approvals list shows it.")
        String id;

        @Spec
        CommandSpec spec;

        @Override
        public Integer call() {
            PrintWriter out = spec.commandLine().getOut();
            PrintWriter err = spec.commandLine().getErr();
            try {
                io.shellgate.rules.Policy policy = options.load(options.cwd());
                io.shellgate.rules.Approval found = policy.review().approvals().stream().filter(a -> a.id().equals(id))
                        .findFirst().orElse(null);
                if (found == null) {
                    err.println("shellgate approvals revoke: no remembered approval with the id " + id
                            + " is in effect here; shellgate approvals list shows them");
                    return ExitCode.USAGE.code();
                }
                if (found.layer() == io.shellgate.rules.Layer.MANAGED || found.layer() == io.shellgate.rules.Layer.DEFAULT) {
                    err.println("shellgate approvals revoke: " + id + " is in " + found.location().file()
                            + ", the " + found.layer().name().toLowerCase(java.util.Locale.ROOT) + " policy, which only its administrator changes");
                    return ExitCode.ERROR.code();
                }
                io.shellgate.reviewer.Approvals.revoke(found, System.getenv("HOME"));
                out.println("revoked " + id + " (" + found.location().file() + "): "
                        + (found.exact() ? found.command() : String.join(" ", found.prefix())) + " asks again");
                return ExitCode.ALLOW.code();
            } catch (PolicyOptions.UsageException e) {
                err.println("shellgate approvals revoke: " + e.getMessage());
                return ExitCode.USAGE.code();
            } catch (io.shellgate.rules.PolicyException e) {
                return PolicyOptions.reportInvalid(err, "shellgate: the policy cannot be used:", e);
            } catch (IllegalArgumentException | IOException e) {
                err.println("shellgate approvals revoke: " + id + ": " + e.getMessage() + " (edit the file by hand)");
                return ExitCode.ERROR.code();
            }
        }
    }
}
