package io.shellgate.launcher.internal.pty;

/**
 * Notices lines that ran without a check. With the integration in place, Enter at a prompt always
 * reaches the proxy as a check before the shell does anything else; if the shell shows its next
 * prompt, or stays silent for long, without having asked, its hook was removed or bypassed
 * ({@code bind -r}, {@code unset -f}, {@code zle -D}, a shell started inside), and the person is
 * told so loudly: from then on, lines typed there are not judged.
 */
final class EscapeWatch {

    static final String WARNING = "\n\u001b[1;31mshellgate: WARNING: the shell ran a line without asking shellgate first:"
            + " its integration was removed or bypassed, so lines typed here are NOT judged any more."
            + " Leave this shell (exit) and start shellgate again.\u001b[0m\n";

    private final Screen screen;
    private final long patienceNanos;
    private boolean atPrompt;
    private boolean expecting;
    private long since;

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
    }

    /** The person pressed Enter. */
    synchronized void enter() {
        if (atPrompt && !expecting) {
            expecting = true;
            since = System.nanoTime();
        }
    }

    /** The hook asked about a line. */
    synchronized void checked() {
        expecting = false;
    }

    /** An allowed line runs: Enter now goes to the command, not to a prompt. */
    synchronized void running() {
        atPrompt = false;
    }

    /** Called now and then: a shell that has not asked long after Enter is not going to. */
    synchronized void tick() {
        if (expecting && System.nanoTime() - since > patienceNanos) {
            warn();
            atPrompt = false;
        }
    }

    private void warn() {
        expecting = false;
        screen.say(WARNING);
    }
}
