package io.shellgate.launcher.internal.pty;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** When the watch says that lines run without a check, and when it keeps quiet. */
class EscapeWatchTest {

    private static final String RAN = "the shell ran a line without asking shellgate first";
    private static final String BLIND = "the shell no longer reports its prompts";
    private static final String SILENT = "the shell took Enter without asking shellgate or showing a prompt";

    private final ByteArrayOutputStream shown = new ByteArrayOutputStream();
    private final EscapeWatch watch = new EscapeWatch(new Screen(shown), 0);

    private String screen() {
        return shown.toString(StandardCharsets.UTF_8);
    }

    /** Enter at a prompt, the hook asks, the line runs, the shell prompts again. */
    private void checkedLine(LineGate.Reply reply) {
        watch.enter();
        watch.checked();
        watch.answered(reply);
    }

    @Test
    void aLineCheckedAndRunIsNotWarnedAbout() {
        watch.prompt();
        checkedLine(LineGate.Reply.RUN);
        watch.prompt();
        checkedLine(LineGate.Reply.REFUSE);
        watch.prompt();
        watch.tick(false);
        assertThat(screen()).isEmpty();
    }

    @Test
    void aPromptAfterEnterWithoutACheckIsWarnedAbout() {
        watch.prompt();
        watch.enter();
        watch.prompt();
        assertThat(screen()).contains(RAN).doesNotContain(BLIND);
    }

    @Test
    void silenceAfterEnterAtAPromptIsWarnedAboutOnceThePatienceIsOver() {
        watch.prompt();
        watch.enter();
        watch.tick(false);
        assertThat(screen()).contains(RAN);
    }

    @Test
    void enterTypedWhileTheHookWaitsIsTypedAhead() {
        watch.prompt();
        watch.enter();
        watch.checked();
        // the person types the next line while the shell waits for the answer
        watch.enter();
        watch.answered(LineGate.Reply.RUN);
        watch.tick(false);
        watch.prompt();
        assertThat(screen()).isEmpty();
    }

    @Test
    void aLineThatNeedsMoreLeavesTheShellAtItsPrompt() {
        watch.prompt();
        checkedLine(LineGate.Reply.MORE);
        watch.enter();
        watch.tick(false);
        assertThat(screen()).contains(RAN);
    }

    @Test
    void enterWhileACommandRunsIsInputForTheCommand() {
        watch.prompt();
        checkedLine(LineGate.Reply.RUN);
        watch.enter();
        watch.tick(false);
        assertThat(screen()).isEmpty();
    }

    @Test
    void aCheckWithNoPromptReportSinceTheLastAcceptedLineIsWarnedAboutOnce() {
        watch.prompt();
        checkedLine(LineGate.Reply.RUN);
        // no prompt report: the shell's prompt hook is gone
        watch.checked();
        assertThat(screen()).contains(BLIND).doesNotContain(RAN);
        watch.answered(LineGate.Reply.RUN);
        watch.checked();
        assertThat(screen().split(BLIND, -1)).hasSize(2);
    }

    @Test
    void enterTakenByTheShellItselfWithoutAReportOrACheckIsWarnedAbout() {
        watch.prompt();
        checkedLine(LineGate.Reply.RUN);
        // the line removed both the prompt report and the Enter hook; the next line runs unseen
        watch.enter();
        watch.tick(true);
        assertThat(screen()).isEmpty();
        watch.tick(true);
        assertThat(screen()).contains(SILENT).doesNotContain(RAN);
    }

    @Test
    void enterForARunningCommandIsNotWarnedAboutWhenTheShellReportsItsPromptAfterIt() {
        watch.prompt();
        checkedLine(LineGate.Reply.RUN);
        watch.enter();
        watch.tick(false);
        watch.tick(false);
        // the command ended: the shell is in the foreground for a moment before it reports
        watch.tick(true);
        watch.prompt();
        watch.tick(true);
        watch.tick(true);
        assertThat(screen()).isEmpty();
    }
}
