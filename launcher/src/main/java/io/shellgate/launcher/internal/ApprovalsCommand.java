package io.shellgate.launcher.internal;

import io.shellgate.launcher.ExitCode;
import io.shellgate.reviewer.Answer;
import io.shellgate.reviewer.Approvals;
import io.shellgate.reviewer.Waiting;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code shellgate approvals}: lists the asks waiting for a person, and answers them. */
@Command(name = "approvals", mixinStandardHelpOptions = true,
        description = {"Lists the commands waiting for a person's review, or answers one.",
            "  shellgate approvals                 list what waits (with --review: ask about each in turn)",
            "  shellgate approvals ID ANSWER       answer one: once, session, project or refuse",
            "An answer names the ask by its id (or a unique start of it, 4 characters at least); it is bound",
            "to that one request and does nothing for a later look-alike."})
public final class ApprovalsCommand implements Callable<Integer> {

    @Parameters(index = "0", arity = "0..1", paramLabel = "ID", description = "The id of the waiting ask to answer.")
    String id;

    @Parameters(index = "1", arity = "0..1", paramLabel = "ANSWER", description = "once, session, project or refuse.")
    String answer;

    @Option(names = "--review", description = "Ask about each waiting command in turn, reading answers from stdin.")
    boolean review;

    @Spec
    CommandSpec spec;

    private final InputStream in;

    public ApprovalsCommand(InputStream in) {
        this.in = in;
    }

    @Override
    public Integer call() throws IOException {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        Approvals approvals = Approvals.in(System.getenv());
        if (approvals == null) {
            err.println("shellgate: no state directory: set HOME, XDG_STATE_HOME or SHELLGATE_STATE_DIR");
            return ExitCode.ERROR.code();
        }
        String by = System.getProperty("user.name", "?") + " through shellgate approvals";
        if (id != null) {
            Answer a = answer == null ? null : Answer.parse(answer.toLowerCase(Locale.ROOT));
            if (a == null) {
                err.println("shellgate: approvals " + id + ": give an answer: once, session, project or refuse");
                return ExitCode.USAGE.code();
            }
            try {
                String full = approvals.answer(id, a, by);
                out.println("answered " + full + ": " + a.id());
                return ExitCode.ALLOW.code();
            } catch (IllegalArgumentException e) {
                err.println("shellgate: " + e.getMessage());
                return ExitCode.ERROR.code();
            }
        }
        List<Waiting> waiting = approvals.waiting();
        if (waiting.isEmpty()) {
            out.println("nothing is waiting for review");
            return ExitCode.ALLOW.code();
        }
        BufferedReader answers = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
        for (Waiting w : waiting) {
            describe(out, w);
            if (!review) {
                continue;
            }
            out.print("  answer [o]nce, [s]ession, [p]roject, [r]efuse, or Enter to skip: ");
            out.flush();
            String line = answers.readLine();
            if (line == null) {
                break;
            }
            Answer a = switch (line.strip().toLowerCase(Locale.ROOT)) {
                case "o", "once" -> Answer.ONCE;
                case "s", "session" -> Answer.SESSION;
                case "p", "project" -> Answer.PROJECT;
                case "r", "refuse" -> Answer.REFUSE;
                default -> null;
            };
            if (a != null) {
                try {
                    approvals.answer(w.id(), a, by);
                    out.println("  answered: " + a.id());
                } catch (IllegalArgumentException e) {
                    out.println("  " + e.getMessage());
                }
            }
        }
        if (!review) {
            out.println("answer with: shellgate approvals ID once|session|project|refuse  (or: shellgate approvals --review)");
        }
        return ExitCode.ALLOW.code();
    }

    private static void describe(PrintWriter out, Waiting w) {
        long age = Duration.between(w.since(), Instant.now()).toSeconds();
        long left = Duration.between(Instant.now(), w.until()).toSeconds();
        out.println(w.id() + "  (" + w.entry() + (w.pid() != 0 ? " pid " + w.pid() : "")
                + (w.detail().isEmpty() ? "" : " " + w.detail()) + ", waiting " + age + " s, refused in " + left + " s)");
        out.println("  in " + w.cwd());
        out.println("  $ " + w.command().strip().replace("\n", "\n    "));
        for (String r : w.reasons()) {
            out.println("  - " + r);
        }
    }
}
