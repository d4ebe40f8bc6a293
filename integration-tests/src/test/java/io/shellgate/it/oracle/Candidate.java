package io.shellgate.it.oracle;

import io.shellgate.judge.Dialect;

/**
 * A command line the oracle may run.
 *
 * @param line the command line
 * @param dialect the shell that runs it (bash or zsh)
 * @param origin where it comes from: the policy entry and option it was built from, or a corpus
 */
record Candidate(String line, Dialect dialect, String origin) {

    /** The line as one line of text: newlines, carriage returns and tabs shown as ⏎, ␍ and ⇥. */
    String display() {
        return escape(line);
    }

    static String escape(String text) {
        return text.replace("\n", "⏎").replace("\r", "␍").replace("\t", "⇥");
    }
}
