package io.shellgate.it.oracle;

import io.shellgate.judge.Dialect;

/**
 * A command line the oracle may run.
 *
 * @param line the command line, exactly as the shell receives it
 * @param dialect the shell that runs it (bash or zsh)
 * @param origin where it comes from: the policy entry and option it was built from, or a corpus
 * @param shown how reports and the list of exceptions name the line; null for the line itself. A
 *     line wrapped in an agent's envelope names paths of this run's world, so it is shown as the
 *     command inside with the envelope's name
 */
record Candidate(String line, Dialect dialect, String origin, String shown) {

    Candidate(String line, Dialect dialect, String origin) {
        this(line, dialect, origin, null);
    }

    /** The line as one line of text: newlines, carriage returns and tabs shown as ⏎, ␍ and ⇥. */
    String display() {
        return escape(shown != null ? shown : line);
    }

    static String escape(String text) {
        return text.replace("\n", "⏎").replace("\r", "␍").replace("\t", "⇥");
    }
}
