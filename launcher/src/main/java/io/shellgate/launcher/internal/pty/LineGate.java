package io.shellgate.launcher.internal.pty;

import io.shellgate.judge.Dialect;
import io.shellgate.judge.JudgeRequest;
import io.shellgate.judge.Verdict;
import io.shellgate.reviewer.model.Printable;
import io.shellgate.reviewer.Gatekeeper;
import io.shellgate.reviewer.model.Origin;
import io.shellgate.reviewer.model.Person;
import io.shellgate.reviewer.Result;
import io.shellgate.rules.PolicyException;
import java.util.function.Predicate;

/**
 * Decides on a line the shell's hook sent at Enter: more lines needed, run, or refused (with the
 * reason printed). Every judged line goes through the review pipeline, which asks the person at
 * the terminal when it gets that far.
 */
final class LineGate {

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
    private final Gatekeeper gate;
    private final Predicate<String> incomplete;
    private final Origin origin;
    private final Person person;
    private final Voice screen;
    /** Whether a person types into this terminal (not {@code --agent-driven}): see {@link PersonsOwn}. */
    private final boolean personTypes;

    LineGate(Dialect dialect, Gatekeeper gate, Predicate<String> incomplete, Origin origin, Person person, Voice screen,
            boolean personTypes) {
        this.personTypes = personTypes;
        this.dialect = dialect;
        this.gate = gate;
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
        // the shell's exported variables are what the line will see, never the gate's configuration
        JudgeRequest request = new JudgeRequest(line, dialect, check.cwd(), check.env(), null, false);
        Result result = personTypes && dialect.isPosix() ? decideTyped(request) : gate.decide(request, origin, person);
        if (result.warning() != null) {
            screen.say(result.warning() + "\n");
        }
        switch (result) {
            case Result.Runs runs -> {
                if (startsShell(runs.verdict())) {
                    screen.say("\u001b[1;33mshellgate: a shell started this way reads its own commands: lines typed in it"
                            + " are not judged until you leave it (a zsh started without -f inherits shellgate's hook).\u001b[0m\n");
                }
                return Reply.RUN;
            }
            case Result.Refused r -> {
                screen.say(quoted(line) + "\n" + r.line() + "\n");
                return Reply.REFUSE;
            }
            case Result.PolicyBroken p -> {
                screen.say(p.line() + "\n");
                return Reply.REFUSE;
            }
        }
    }

    /** Decides on a line a person typed: what only concerns their own shell or their own reading is not asked. */
    private Result decideTyped(JudgeRequest request) {
        Verdict v;
        try {
            v = gate.judge(request);
        } catch (PolicyException | RuntimeException e) {
            return gate.decide(request, origin, person);
        }
        String why = PersonsOwn.why(request, v, other -> {
            try {
                return gate.judge(new JudgeRequest(other, dialect, request.cwd(), request.env(), null, false));
            } catch (PolicyException | RuntimeException e) {
                return null;
            }
        }, gate.config().env().get("HOME"));
        return why != null ? gate.typedByPerson(request, v, origin, why) : gate.decide(request, v, origin, person, null);
    }

    /** The line as shown above a refusal: on one line, shortened when long, its control characters visible. */
    private static String quoted(String line) {
        String one = Printable.of(line.strip().replace("\n", " \u23ce "));
        return "`" + (one.length() > 80 ? one.substring(0, 77) + "..." : one) + "`";
    }

    /** An interactive shell started inside reads its own commands: the judge says so with stdin-code. */
    private static boolean startsShell(Verdict v) {
        return v.reasons().stream().anyMatch(r -> r.rule().equals("stdin-code") || r.rule().equals("wrapper-confined")
                && v.commands().stream().anyMatch(c -> !c.argv().isEmpty() && c.argv().getFirst().endsWith("script")));
    }
}
