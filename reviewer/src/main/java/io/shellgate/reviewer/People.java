package io.shellgate.reviewer;

import io.shellgate.reviewer.internal.TtyPerson;
import io.shellgate.reviewer.model.Answer;
import io.shellgate.reviewer.model.PendingAsk;
import io.shellgate.reviewer.model.Person;
import java.time.Duration;
import java.util.Optional;

/** People the gate can ask, besides whoever watches with {@code shellgate approvals --watch}. */
public final class People {

    /** The caller asks its own user (an agent's hook): the gate hands an open ask back instead of waiting. */
    private static final Person AGENTS_USER = new Person() {
        @Override
        public Optional<Answer> ask(PendingAsk ask, Duration timeout) {
            return Optional.empty();
        }

        @Override
        public String toString() {
            return "the agent's own user";
        }
    };

    private People() {}

    /** The person at a terminal device ({@code /dev/tty}, {@code /dev/pts/3}): asked and answered on the device itself. */
    public static Person terminal(String device) {
        return new TtyPerson(device);
    }

    /** Nobody at hand: only a person watching can answer. */
    public static Person none() {
        return null;
    }

    /**
     * The agent asks its own user (Claude Code's dialog): what memory and the LLM leave open is
     * refused at once as "needs review by a person", which the hook hands back as "ask".
     */
    public static Person agentsOwnUser() {
        return AGENTS_USER;
    }

    /**
     * As {@link #agentsOwnUser()}, for an agent whose own allow rules ({@code rules}) may decide instead of its dialog:
     * an ask one of them covers is left to the agent, where the policy allows it.
     */
    public static Person agentsOwnUser(AgentRules rules) {
        return rules == null ? AGENTS_USER : new AgentsUserWithRules(rules);
    }

    static boolean isAgentsOwnUser(Person p) {
        return p == AGENTS_USER || p instanceof AgentsUserWithRules;
    }

    /** The agent's own allow rules of an {@link #agentsOwnUser(AgentRules)} person; null for any other. */
    static AgentRules agentRules(Person p) {
        return p instanceof AgentsUserWithRules a ? a.rules() : null;
    }

    private record AgentsUserWithRules(AgentRules rules) implements Person {
        @Override
        public Optional<Answer> ask(PendingAsk ask, Duration timeout) {
            return Optional.empty();
        }

        @Override
        public String toString() {
            return "the agent's own user, or its own allow rules";
        }
    }

    /**
     * Nobody at the door, and whoever watches with {@code shellgate approvals --watch} is asked
     * within {@code cap}, the budget of the whole review (the LLM step included): for an agent's
     * hook that cannot ask its own user and must answer before the agent's hook timeout (Gemini
     * CLI lets the call through when its timeout passes).
     */
    public static Person watchersWithin(Duration cap) {
        if (cap == null || cap.isNegative() || cap.isZero()) {
            throw new IllegalArgumentException("a watcher's time must be positive");
        }
        return new WatchersOnly(cap);
    }

    /** The cap of a {@link #watchersWithin} person; null for any other. */
    static Duration watcherCap(Person p) {
        return p instanceof WatchersOnly w ? w.cap() : null;
    }

    private record WatchersOnly(Duration cap) implements Person {
        @Override
        public Optional<Answer> ask(PendingAsk ask, Duration timeout) {
            return Optional.empty();
        }

        @Override
        public String toString() {
            return "whoever watches, for at most " + cap.toSeconds() + " s";
        }
    }
}
