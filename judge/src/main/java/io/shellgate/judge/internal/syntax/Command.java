package io.shellgate.judge.internal.syntax;

import io.shellgate.judge.Span;
import java.util.List;

/** A node of the shell's command structure. */
public sealed interface Command {

    Span span();

    /** Assignments, words and redirections: one command the shell runs. */
    record Simple(List<Assignment> assignments, List<Word> words, List<Redirect> redirects, Span span)
            implements Command {

        public Simple {
            assignments = List.copyOf(assignments);
            words = List.copyOf(words);
            redirects = List.copyOf(redirects);
        }
    }

    /** Commands joined by {@code |} or {@code |&}; each reads what the one before it writes. */
    record Pipeline(List<Command> stages, Span span) implements Command {

        public Pipeline {
            stages = List.copyOf(stages);
        }
    }

    /** Commands run one after another ({@code ;}, newline, {@code &&}, {@code ||}). */
    record Sequence(List<Command> items, Span span) implements Command {

        public Sequence {
            items = List.copyOf(items);
        }
    }

    /** {@code cmd &}. */
    record Background(Command body, Span span) implements Command {}

    /** {@code ! cmd}. */
    record Negated(Command body, Span span) implements Command {}

    /** {@code ( ... )}: runs in a child shell, so {@code cd} and variables do not leak out. */
    record Subshell(Command body, Span span) implements Command {}

    /** {@code { ...; }}. */
    record Group(Command body, Span span) implements Command {}

    /** A compound command with redirections applied to all of it. */
    record Redirected(Command body, List<Redirect> redirects, Span span) implements Command {

        public Redirected {
            redirects = List.copyOf(redirects);
        }
    }

    /**
     * {@code if}, {@code while}, {@code until}, {@code for}, {@code select}, {@code case},
     * {@code [[ ]]} and {@code (( ))}: the words it expands and the bodies it may run.
     *
     * @param variable the loop variable of {@code for} and {@code select}, or null
     */
    record Compound(String kind, String variable, List<Word> words, List<Command> bodies, Span span) implements Command {

        public Compound {
            words = List.copyOf(words);
            bodies = List.copyOf(bodies);
        }
    }

    /** {@code name() { ...; }}. */
    record FunctionDef(String name, Command body, Span span) implements Command {}

    /** Something the converter did not understand; the judge never allows it. */
    record Opaque(String why, Span span) implements Command {}
}
