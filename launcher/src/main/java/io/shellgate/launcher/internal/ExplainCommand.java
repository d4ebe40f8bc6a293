package io.shellgate.launcher.internal;

import io.shellgate.judge.CommandInfo;
import io.shellgate.judge.Dialect;
import io.shellgate.judge.JudgeRequest;
import io.shellgate.judge.Judges;
import io.shellgate.judge.Reason;
import io.shellgate.judge.Span;
import io.shellgate.judge.Verdict;
import io.shellgate.launcher.internal.cli.ExitCode;
import io.shellgate.launcher.internal.cli.PolicyOptions;
import io.shellgate.rules.PolicyException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/** {@code shellgate explain}: a readable trace of how a command line was judged. */
@Command(name = "explain", mixinStandardHelpOptions = true,
        description = {"Shows how a command line is judged: each simple command found, the wrappers stripped,",
            "what its name resolves to, which rules hit, and the final tier."},
        footer = {"", "Exit codes: as for check (0 allow, 10 ask, 20 deny)."})
public final class ExplainCommand implements Callable<Integer> {

    @Mixin
    PolicyOptions options;

    @Option(names = "--tree", description = "Also print the parse tree (tree-sitter's and shellgate's).")
    boolean tree;

    @Parameters(paramLabel = "COMMAND", arity = "1..*", description = "The command line to explain.")
    List<String> command;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        try {
            Path cwd = options.cwd();
            Dialect dialect = options.dialect();
            String line = String.join(" ", command);
            io.shellgate.rules.Policy policy = options.load(cwd);
            JudgeRequest request = new JudgeRequest(line, dialect, cwd, System.getenv());
            Verdict v = Judges.create(policy).judge(request);
            out.println("command line: " + line.replace("\n", "\n              "));
            out.println("dialect " + dialect.id() + ", working directory " + cwd);
            if (tree && dialect.isPosix()) {
                out.println();
                out.println("tree-sitter: " + Judges.treeSitterTree(line));
                out.println("shellgate:   " + Judges.syntaxTree(line));
            }
            List<Reason> unassigned = new ArrayList<>(v.reasons());
            int n = 0;
            for (CommandInfo c : v.commands()) {
                out.println();
                out.println(++n + ". " + String.join(" ", c.argv()) + (c.depth() > 0 ? "   (nested " + c.depth() + " deep)" : ""));
                if (!c.wrappers().isEmpty()) {
                    out.println("   wrappers stripped: " + String.join(", ", c.wrappers()));
                }
                out.println("   resolves to: " + c.resolved());
                for (Reason r : List.copyOf(unassigned)) {
                    if (owner(r, v.commands()) == c) {
                        out.println("   " + pad(r.tier().id()) + r.rule() + ": " + r.message());
                        unassigned.remove(r);
                    }
                }
                out.println("   => " + c.tier().id());
            }
            if (!unassigned.isEmpty()) {
                out.println();
                out.println("other findings:");
                for (Reason r : unassigned) {
                    out.println("   " + pad(r.tier().id()) + r.rule() + ": " + r.message()
                            + (r.span().end() > r.span().start() ? "   [" + r.span().of(line).replace("\n", "⏎") + "]" : ""));
                }
            }
            out.println();
            out.println("verdict: " + v.tier().id().toUpperCase(java.util.Locale.ROOT)
                    + (v.deciding().isEmpty() ? "" : " (" + String.join(", ", v.deciding().stream().map(Reason::rule).distinct().toList()) + ")"));
            CheckCommand.approval(policy, request, v).ifPresent(out::println);
            return CheckCommand.exit(v.tier()).code();
        } catch (PolicyOptions.UsageException e) {
            err.println("shellgate explain: " + e.getMessage());
            return ExitCode.USAGE.code();
        } catch (PolicyException e) {
            return PolicyOptions.reportInvalid(err, "shellgate: the policy cannot be used:", e);
        }
    }

    /** The command with the smallest span that contains the reason's span. */
    private static CommandInfo owner(Reason r, List<CommandInfo> commands) {
        CommandInfo best = null;
        for (CommandInfo c : commands) {
            Span s = c.span();
            if (s.contains(r.span()) && (best == null || s.end() - s.start() < best.span().end() - best.span().start())) {
                best = c;
            }
        }
        return best;
    }

    private static String pad(String tier) {
        return (tier + "      ").substring(0, 6);
    }
}
