package io.shellgate.launcher.internal.pty;

import io.shellgate.judge.Dialect;
import io.shellgate.judge.JudgeRequest;
import io.shellgate.judge.Reason;
import io.shellgate.judge.Verdict;
import io.shellgate.launcher.internal.server.JudgeProvider;
import io.shellgate.reviewer.Gates;
import io.shellgate.reviewer.Decision;
import io.shellgate.reviewer.EntryPoint;
import io.shellgate.reviewer.Origin;
import io.shellgate.reviewer.Person;
import io.shellgate.reviewer.ReviewRequest;
import io.shellgate.reviewer.Reviewer;
import io.shellgate.reviewer.Reviewers;
import io.shellgate.rules.Policy;
import io.shellgate.rules.PolicyException;
import java.util.IdentityHashMap;
import java.util.Map;
import java.util.function.Predicate;

/**
 * Decides on a line the shell's hook sent at Enter: more lines needed, run, or refused (with the
 * reason printed). Every judged line goes through the review pipeline, which asks the person at
 * the terminal when it gets that far.
 */
final class Gate {

    /** What the hook does with the line. */
    enum Reply {
        /** Accept the line as typed. */
        RUN,
        /** Not a whole command yet: keep editing on a new line of the same buffer. */
        MORE,
        /** Clear the line (it stays in history for editing). */
        REFUSE;

        String wire() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }
    }

    private final Dialect dialect;
    private final JudgeProvider judges;
    private final Predicate<String> incomplete;
    private final Origin origin;
    private final Person person;
    private final Voice screen;
    private final Map<Policy, Reviewer> reviewers = new IdentityHashMap<>();

    Gate(Dialect dialect, JudgeProvider judges, Predicate<String> incomplete, Origin origin, Person person, Voice screen) {
        this.dialect = dialect;
        this.judges = judges;
        this.incomplete = incomplete;
        this.origin = origin;
        this.person = person;
        this.screen = screen;
    }

    Reply decide(HookMessage.Check check) {
        String line = check.line();
        if (line.isBlank()) {
            return Reply.RUN;
        }
        // the shells' -n checks read the line as a script would: ended by a newline
        if (incomplete.test(line.endsWith("\n") ? line : line + "\n")) {
            return Reply.MORE;
        }
        Gates.Gate loaded;
        try {
            loaded = judges.load(check.cwd(), check.env());
        } catch (PolicyException e) {
            screen.say("shellgate: refused (policy-error): the policy cannot be used: " + e.getMessage() + "\n");
            return Reply.REFUSE;
        }
        JudgeRequest request = new JudgeRequest(line, dialect, check.cwd(), check.env(), null, false);
        Verdict verdict;
        try {
            verdict = loaded.judge().judge(request);
        } catch (RuntimeException e) {
            screen.say("shellgate: refused (judge-error): the line could not be judged: " + e + "\n");
            return Reply.REFUSE;
        }
        Reviewer reviewer = reviewers.computeIfAbsent(loaded.policy(), p -> Reviewers.create(p, check.env()));
        Decision d = reviewer.review(new ReviewRequest(request, verdict, origin, person));
        if (!d.runs()) {
            Reason r = verdict.primary();
            screen.say(switch (verdict.tier()) {
                case DENY -> "shellgate: refused " + quoted(line) + " (" + r.rule() + "): " + r.message() + "\n";
                case ASK, ALLOW -> "shellgate: not run (" + r.rule() + "): " + d.message() + "\n";
            });
            return Reply.REFUSE;
        }
        if (startsShell(verdict)) {
            screen.say("\u001b[1;33mshellgate: a shell started this way reads its own commands: lines typed in it are not"
                    + " judged until you leave it (a zsh started without -f inherits shellgate's hook).\u001b[0m\n");
        }
        return Reply.RUN;
    }

    /** The line as shown in a refusal: on one line, shortened when long. */
    private static String quoted(String line) {
        String one = line.strip().replace("\n", " \u23ce ");
        return "`" + (one.length() > 80 ? one.substring(0, 77) + "..." : one) + "`";
    }

    /** An interactive shell started inside reads its own commands: the judge says so with stdin-code. */
    private static boolean startsShell(Verdict v) {
        return v.reasons().stream().anyMatch(r -> r.rule().equals("stdin-code") || r.rule().equals("wrapper-confined")
                && v.commands().stream().anyMatch(c -> !c.argv().isEmpty() && c.argv().getFirst().endsWith("script")));
    }
}
