package io.shellgate.launcher.internal.pty;

/**
 * Notices lines that ran without a check. With the integration in place, Enter at a prompt always
 * reaches the proxy as a check before the shell does anything else, and every line the shell
 * accepts (run, or refused and cleared) is followed by a prompt report before the next check. So:
 * if the shell reports its next prompt, or stays silent for long, after Enter at a prompt without
 * having asked, its Enter hook was removed or bypassed ({@code bind}, {@code zle -A}, a shell
 * started inside); if a check comes with no prompt report since the last accepted line, its prompt
 * report was removed ({@code unset PROMPT_COMMAND}, {@code precmd_functions=()}), which would blind
 * the first watch. Either way the person is told so loudly.
 */
final class EscapeWatch {

    static final String WARNING = "\n\u001b[1;31mshellgate: WARNING: the shell ran a line without asking shellgate first:"
            + " its integration was removed or bypassed, so lines typed here are NOT judged any more."
            + " Leave this shell (exit) and start shellgate again.\u001b[0m\n";

    static final String BLIND = "\n\u001b[1;31mshellgate: WARNING: the shell no longer reports its prompts to shellgate:"
            + " its integration was changed, so a line that bypasses the check would now run UNNOTICED."
            + " Leave this shell (exit) and start shellgate again.\u001b[0m\n";

    private final Screen screen;
    private final long patienceNanos;
    private boolean atPrompt;
    private boolean expecting;
    private boolean promptOwed;
    private boolean blindSaid;
    private long since;

    EscapeWatch(Screen screen, long patienceNanos) {
        this.screen = screen;
        this.patienceNanos = patienceNanos;
    }

    /** The shell is about to show its prompt. */
    synchronized void prompt() {
        if (expecting) {
            warn(WARNING);
        }
        atPrompt = true;
        promptOwed = false;
    }

    /** The person pressed Enter. */
    synchronized void enter() {
        if (atPrompt && !expecting) {
            expecting = true;
            since = System.nanoTime();
        }
    }

    /** The hook asked about a line: keys typed from now until it is answered are typed ahead. */
    synchronized void checked() {
        expecting = false;
        atPrompt = false;
        if (promptOwed && !blindSaid) {
            // said once: the prompt reports are gone for the rest of the session
            blindSaid = true;
            screen.say(BLIND);
        }
        promptOwed = false;
    }

    /**
     * The hook's line was answered. A line that runs, or is refused and cleared, is accepted and the
     * shell reports a prompt before it can ask again; one that needs more lines stays at the prompt.
     */
    synchronized void answered(Gate.Reply reply) {
        switch (reply) {
            case RUN, REFUSE -> promptOwed = true;
            case MORE -> atPrompt = true;
        }
    }

    /** Called now and then: a shell that has not asked long after Enter is not going to. */
    synchronized void tick() {
        if (expecting && System.nanoTime() - since > patienceNanos) {
            warn(WARNING);
            atPrompt = false;
        }
    }

    private void warn(String text) {
        expecting = false;
        screen.say(text);
    }
}
