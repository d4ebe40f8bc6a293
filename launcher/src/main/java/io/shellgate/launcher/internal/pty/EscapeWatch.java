package io.shellgate.launcher.internal.pty;

/**
 * Notices lines that ran without a check. With the integration in place, Enter at a prompt always
 * reaches the proxy as a check before the shell does anything else, and every line the shell
 * accepts (run, or refused and cleared) is followed by a prompt report before the next check. So:
 * if the shell reports its next prompt, or stays silent for long, after Enter at a prompt without
 * having asked, its Enter hook was removed or bypassed ({@code bind}, {@code zle -A}, a shell
 * started inside); if a check comes with no prompt report since the last accepted line, its prompt
 * report was removed ({@code unset PROMPT_COMMAND}, {@code precmd_functions=()}), which would blind
 * the first watch; if both went in one line, Enter pressed while the shell owes its report and
 * then sits in the foreground without asking or reporting is the sign (see {@link #tick}). Each
 * time the person is told so loudly.
 */
final class EscapeWatch {

    static final String WARNING = "\n\u001b[1;31mshellgate: WARNING: the shell ran a line without asking shellgate first:"
            + " its integration was removed or bypassed, so lines typed here are NOT judged any more."
            + " Leave this shell (exit) and start shellgate again.\u001b[0m\n";

    static final String BLIND = "\n\u001b[1;31mshellgate: WARNING: the shell no longer reports its prompts to shellgate:"
            + " its integration was changed, so a line that bypasses the check would now run UNNOTICED."
            + " Leave this shell (exit) and start shellgate again.\u001b[0m\n";

    static final String SILENT = "\n\u001b[1;31mshellgate: WARNING: the shell took Enter without asking shellgate or"
            + " showing a prompt, and no program of it runs: unless a builtin (read, say) took that line, the shell's"
            + " integration was removed, so lines typed here run UNNOTICED. Leave this shell (exit) and start shellgate"
            + " again.\u001b[0m\n";

    private final Screen screen;
    private final long patienceNanos;
    private boolean atPrompt;
    private boolean expecting;
    private boolean promptOwed;
    private boolean blindSaid;
    private long since;
    private boolean enterOwed;
    private long owedSince;
    private int idleTicks;

    EscapeWatch(Screen screen, long patienceNanos) {
        this.screen = screen;
        this.patienceNanos = patienceNanos;
    }

    /** The shell is about to show its prompt. */
    synchronized void prompt() {
        if (expecting) {
            warn();
        }
        atPrompt = true;
        promptOwed = false;
        enterOwed = false;
    }

    /** The person pressed Enter. */
    synchronized void enter() {
        if (atPrompt && !expecting) {
            expecting = true;
            since = System.nanoTime();
        } else if (promptOwed && !enterOwed) {
            // input for the last line's command, or a line the shell reads while its prompt report is gone
            enterOwed = true;
            owedSince = System.nanoTime();
            idleTicks = 0;
        }
    }

    /** The hook asked about a line: keys typed from now until it is answered are typed ahead. */
    synchronized void checked() {
        expecting = false;
        atPrompt = false;
        if (promptOwed) {
            // the prompt reports are gone for the rest of the session
            warnOnce(BLIND);
        }
        promptOwed = false;
        enterOwed = false;
    }

    /**
     * The hook's line was answered. A line that runs, or is refused and cleared, is accepted and the
     * shell reports a prompt before it can ask again; one that needs more lines stays at the prompt.
     */
    synchronized void answered(LineGate.Reply reply) {
        switch (reply) {
            case RUN, REFUSE -> promptOwed = true;
            case MORE -> atPrompt = true;
        }
    }

    /**
     * Called now and then. A shell that has not asked long after Enter at a prompt is not going to.
     * Enter pressed while the shell still owes the prompt report of the last line was input for
     * that line's command, unless the shell itself ({@code shellInForeground}: no job of its own
     * runs) sits there long after it without asking or reporting: then the last line removed the
     * prompt report and the Enter hook together ({@code unset PROMPT_COMMAND; bind ...}), or it
     * still waits in a builtin such as {@code read}.
     */
    synchronized void tick(boolean shellInForeground) {
        long now = System.nanoTime();
        if (expecting && now - since > patienceNanos) {
            warn();
            atPrompt = false;
        }
        // twice in a row: a command that just ended leaves the shell in the foreground for a moment before it reports
        idleTicks = shellInForeground ? idleTicks + 1 : 0;
        if (enterOwed && idleTicks >= 2 && now - owedSince > patienceNanos) {
            enterOwed = false;
            warnOnce(SILENT);
        }
    }

    private void warn() {
        expecting = false;
        screen.say(WARNING);
    }

    /** A warning that a prompt report went missing: given once a session. */
    private void warnOnce(String text) {
        if (!blindSaid) {
            blindSaid = true;
            screen.say(text);
        }
    }
}
