package io.shellgate.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code shellgate shell} driven through a terminal of the test's own, with the real bash and zsh
 * behind the proxy: what a person typing sees and gets. Markers are computed by the shell
 * ({@code $((6*7))}), so that the echo of the typed line never matches them.
 */
class PtyShellTest extends SandboxTest {

    private static final String POLICY = """
            [[rule]]
            id = "no-marker-delete"
            tier = "deny"
            reason = "the marker stays"
            command = ["rm"]
            args-any = ["marker"]
            match = ["rm marker"]
            not-match = ["rm other"]
            """;

    private static final String ASKED = "Run it? [y] once";

    private TestTerminal term;
    private Path marker;

    @BeforeEach
    void policyAndMarker() throws Exception {
        Path config = Files.createDirectories(box.home.resolve(".config/shellgate"));
        Files.writeString(config.resolve("policy.toml"), POLICY);
        marker = Files.writeString(box.work.resolve("marker"), "x");
        // the person at this terminal is asked: the sandbox's default (0) refuses asks at once
        box.env.put("SHELLGATE_REVIEW_TIMEOUT_SECONDS", "120");
        // a prompt to wait for, set in the person's own startup files, which the integration sources
        // (the system's, such as Debian's /etc/bash.bashrc, set a prompt of their own)
        Files.writeString(box.home.resolve(".bashrc"), "PS1='ready> '\n");
        // no history file written into the sandbox's home while the test deletes it
        box.env.put("HISTFILE", "/dev/null");
        Files.writeString(box.home.resolve(".zshrc"), "PS1='ready> '\n");
    }

    @AfterEach
    void closeTerminal() {
        if (term != null) {
            term.close();
        }
    }

    private TestTerminal shell(String shell) throws Exception {
        term = TestTerminal.start(box, "shell", "--shell", shell);
        term.await("ready> ");
        return term;
    }

    /**
     * Answers the question on the screen as a person who read it would (a key within 300 ms of it
     * is no answer), and waits until the answer is shown: later keys go to the shell.
     */
    private void answer(String key) throws Exception {
        term.await("[n] refuse: ");
        Thread.sleep(400);
        term.type(key);
        term.await(switch (key) {
            case "y" -> "once";
            case "s" -> "always in this session";
            default -> "refused";
        });
    }

    /** Runs a line that prints {@code sg-N} and waits for it: everything before has been dealt with. */
    private String sentinel(int n) throws Exception {
        term.type("echo sg-$((" + n + "+1000))\r");
        return term.await("sg-" + (n + 1000));
    }

    @ParameterizedTest
    @ValueSource(strings = {"bash", "zsh"})
    void anAllowedLinePrintsItsOutput(String shell) throws Exception {
        shell(shell).type("echo sg-$((6*7))\r");
        term.await("sg-42");
        term.type("exit\r");
        assertThat(term.exitCode()).isZero();
    }

    @ParameterizedTest
    @ValueSource(strings = {"bash", "zsh"})
    void aDeniedLinePrintsTheReasonAndDoesNotRun(String shell) throws Exception {
        shell(shell).type("rm marker\r");
        term.await("`rm marker`");
        term.await("shellgate: refused (no-marker-delete): the marker stays");
        sentinel(1);
        assertThat(marker).exists();
    }

    @ParameterizedTest
    @ValueSource(strings = {"bash", "zsh"})
    void anAskAnsweredNoDoesNotRun(String shell) throws Exception {
        shell(shell).type("touch made\r");
        assertThat(term.await(ASKED)).contains("touch made", "touch is not on the read-only list (not-read-only)");
        answer("n");
        term.await("refused by a person");
        sentinel(2);
        assertThat(box.work.resolve("made")).doesNotExist();
    }

    @ParameterizedTest
    @ValueSource(strings = {"bash", "zsh"})
    void textWrittenWhileTheQuestionIsShownNeverApproves(String shell) throws Exception {
        shell(shell).type("touch made\r");
        term.await("[n] refuse: ");
        Thread.sleep(400);
        // what a program writing to the terminal, or a paste, or a line typed ahead looks like
        term.type("echo sg-kept-$((3*3))\r");
        term.await("refused: 22 keys arrived at once");
        // not an answer, and not lost either: the shell gets the line after the question, and judges it at Enter
        term.await("sg-kept-9");
        sentinel(7);
        term.type("touch made\r");
        term.await("[n] refuse: ");
        Thread.sleep(400);
        term.type("o");
        term.await("refused: 'o' is not an answer (y, s, p or n)");
        sentinel(8);
        assertThat(box.work.resolve("made")).doesNotExist();
    }

    @Test
    void anAgentDrivenTerminalIsNeverAskedAndTheWatcherIs() throws Exception {
        // what an agent types there could answer its own asks: they go to a person watching elsewhere
        term = TestTerminal.start(box, "shell", "--agent-driven", "--shell", "bash");
        term.await("ready> ");
        try (ApprovalsWatch watch = ApprovalsWatch.start(box)) {
            term.type("touch by-agent\r");
            assertThat(watch.awaitQuestion()).contains("touch by-agent");
            // keys the agent sends meanwhile are the shell's, never an answer
            Thread.sleep(400);
            term.type("y");
            assertThat(watch.answer("n")).contains("refused");
            term.type("\u0015");
            assertThat(sentinel(9)).doesNotContain(ASKED);
            assertThat(box.work.resolve("by-agent")).doesNotExist();
            term.type("\u0015touch by-person\r");
            assertThat(watch.awaitQuestion()).contains("touch by-person");
            assertThat(watch.answer("y")).contains("once");
            sentinel(10);
            assertThat(box.work.resolve("by-person")).exists();
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"bash", "zsh"})
    void aPersonIsNotAskedAboutTheirOwnShellStateOrReading(String shell) throws Exception {
        Files.writeString(box.work.resolve("notes.txt"), "sg-notes-content\n");
        shell(shell).type("export SG_MINE=sg-mine\r");
        term.type("alias sgll='echo sg-alias'\r");
        term.type("more notes.txt\r");
        term.await("sg-notes-content");
        // util-linux more waits at the end of a file on a terminal
        term.await("--More--");
        term.type("q");
        term.await("ready> ");
        // the alias is the shell's: shown by the shell (the judge does not know what an alias runs, so running it asks)
        term.type("echo $SG_MINE-$((1+1)); alias sgll\r");
        String shown = term.await("sg-alias");
        assertThat(shown).contains("sg-mine-2").doesNotContain(ASKED);
        assertThat(box.shellgate("log", "--json").out()).contains("typed by the person at their guarded shell: changes the"
                + " shell's own state").contains("a pager or editor on files that are not secrets");
        // the same lines where an agent types are reviewed as everywhere: nobody to ask here, so refused
        term.type("exit\r");
        term.exitCode();
        term = TestTerminal.start(box, "shell", "--agent-driven", "--shell", shell);
        term.await("ready> ");
        term.type("export SG_AGENT=sg-agent\r");
        term.await("refused");
        term.type("echo [$SG_AGENT]-$((2+1))\r");
        assertThat(term.await("]-3")).contains("[]-3");
    }

    @ParameterizedTest
    @ValueSource(strings = {"bash", "zsh"})
    void anAskAnsweredYesRunsOnce(String shell) throws Exception {
        shell(shell).type("touch made\r");
        term.await(ASKED);
        answer("y");
        sentinel(3);
        assertThat(box.work.resolve("made")).exists();
        Files.delete(box.work.resolve("made"));
        term.type("touch made\r");
        term.await(ASKED);
        answer("n");
        sentinel(4);
        assertThat(box.work.resolve("made")).doesNotExist();
    }

    @ParameterizedTest
    @ValueSource(strings = {"bash", "zsh"})
    void alwaysForTheSessionStopsAskingForThatLineOnly(String shell) throws Exception {
        shell(shell).type("touch made\r");
        term.await(ASKED);
        answer("s");
        sentinel(5);
        Files.delete(box.work.resolve("made"));
        term.type("touch made\r");
        assertThat(sentinel(6)).doesNotContain(ASKED);
        assertThat(box.work.resolve("made")).exists();
        term.type("touch other\r");
        term.await(ASKED);
        answer("n");
        sentinel(7);
        assertThat(box.work.resolve("other")).doesNotExist();
    }

    @ParameterizedTest
    @ValueSource(strings = {"bash", "zsh"})
    void completionAndHistoryKeysStillWork(String shell) throws Exception {
        shell(shell).type("ech\t sg-$((2*5))\r");
        term.await("sg-10");
        // Up arrow, then Enter: the line comes back from the shell's own history and runs again
        term.type("\u001b[A");
        term.await("sg-$((2*5))");
        term.type("\r");
        term.await("sg-10");
        // Ctrl-P, the other history key
        term.type("\u0010\r");
        term.await("sg-10");
    }

    @ParameterizedTest
    @ValueSource(strings = {"bash", "zsh"})
    void aResizeReachesTheShell(String shell) throws Exception {
        shell(shell);
        term.resize(100, 33);
        // stty size only prints: it runs without a question
        term.type("stty size\r");
        term.await("33 100");
    }

    @ParameterizedTest
    @ValueSource(strings = {"bash", "zsh"})
    void ctrlCInterruptsSleep(String shell) throws Exception {
        shell(shell).type("echo sg-$((3*3)); sleep 100\r");
        term.await("sg-9");
        term.awaitProcess("sleep");
        term.type("\u0003");
        // the terminal drops keys typed ahead when Ctrl-C interrupts: wait for the prompt
        term.await("ready> ");
        term.type("echo st-$?\r");
        term.await("st-130");
    }

    @ParameterizedTest
    @ValueSource(strings = {"bash", "zsh"})
    void theShellsExitCodeIsShellgates(String shell) throws Exception {
        shell(shell).type("exit 3\r");
        assertThat(term.exitCode()).isEqualTo(3);
    }

    @ParameterizedTest
    @ValueSource(strings = {"bash", "zsh"})
    void tenMegabytesOfOutputArriveByteExact(String shell) throws Exception {
        // no newlines: the shell's own terminal turns those into CR LF, as it would without shellgate
        byte[] content = content(10 * 1024 * 1024);
        Files.write(box.work.resolve("big"), content);
        shell(shell).type("cat big; echo sg-$((5*5))\r");
        String shown = term.await("sg-25");
        assertThat(shown).contains(new String(content, StandardCharsets.ISO_8859_1));
    }

    @ParameterizedTest
    @ValueSource(strings = {"bash", "zsh"})
    void aPasteHoldingADeniedLineIsRefusedWhole(String shell) throws Exception {
        shell(shell).type("\u001b[200~echo pasted-$((4+4))\nrm marker\n\u001b[201~");
        term.type("\r");
        term.await("(no-marker-delete): the marker stays");
        assertThat(sentinel(8)).doesNotContain("pasted-8");
        assertThat(marker).exists();
    }

    @ParameterizedTest
    @ValueSource(strings = {"bash", "zsh"})
    void aMultiLineConstructIsJudgedWhole(String shell) throws Exception {
        shell(shell).type("for i in 1 2\r");
        term.type("do echo sg-$((i*11)); done\r");
        term.await("sg-22");
        term.type("for i in 1\r");
        term.type("do rm marker; done\r");
        term.await("(no-marker-delete): the marker stays");
        sentinel(9);
        assertThat(marker).exists();
    }

    @ParameterizedTest
    @ValueSource(strings = {"bash", "zsh"})
    void anInteractiveShellStartedInsideIsAnAsk(String shell) throws Exception {
        shell(shell).type("bash --norc\r");
        assertThat(term.await(ASKED)).contains("(stdin-code)");
        answer("n");
        sentinel(10);
    }

    private static final String RAN_UNCHECKED = "WARNING: the shell ran a line without asking shellgate first";

    @Test
    void aHookRemovedInBashIsNoticedLoudly() throws Exception {
        hookRemoved("bash", "bind '\"\\C-m\": accept-line'\r", RAN_UNCHECKED);
    }

    @Test
    void aHookRemovedInZshIsNoticedLoudly() throws Exception {
        hookRemoved("zsh", "zle -A .accept-line accept-line\r", RAN_UNCHECKED);
    }

    @Test
    void bothHooksRemovedInOneLineInBashAreNoticedLoudly() throws Exception {
        hookRemoved("bash", "unset PROMPT_COMMAND; bind '\"\\C-m\": accept-line'\r", "WARNING: the shell took Enter without asking");
    }

    @Test
    void bothHooksRemovedInOneLineInZshAreNoticedLoudly() throws Exception {
        hookRemoved("zsh", "precmd_functions=(); zle -A .accept-line accept-line\r", "WARNING: the shell took Enter without asking");
    }

    @ParameterizedTest
    @ValueSource(strings = {"bash", "zsh"})
    void aRemovedPromptReportIsNoticedLoudly(String shell) throws Exception {
        // bash: allowed by the default policy, it changes nothing but the shell's own state; zsh:
        // precmd_functions names functions run before every prompt, so setting it asks, approved here
        shell(shell).type(shell.equals("bash") ? "unset PROMPT_COMMAND\r" : "precmd_functions=()\r");
        if (!shell.equals("bash")) {
            term.await(ASKED);
            answer("y");
        }
        // the next line is still checked, and the check comes without the prompt report owed for the last one
        term.type("echo sg-$((8*8))\r");
        term.awaitAll("sg-64", "WARNING: the shell no longer reports its prompts to shellgate");
    }

    /**
     * The line that replaces the hook is asked about; once allowed, the next line runs unchecked and
     * the proxy says so (when the shell reports its next prompt, or, with the reports gone too, once
     * the shell sits idle after Enter). The warning and the line's output come on two paths, so
     * either may reach the terminal first.
     */
    private void hookRemoved(String shell, String removal, String warning) throws Exception {
        shell(shell).type(removal);
        term.await(ASKED);
        answer("y");
        // the prompt after the removal: the shell redraws the accepted line first, then prompts
        term.await(removal.strip());
        term.await("ready> ");
        term.type("echo sg-$((7*7))\r");
        term.awaitAll("sg-49", warning);
    }

    @Test
    void shellgateWithNoArgumentsOnATerminalIsTheGuardedShell() throws Exception {
        term = TestTerminal.start(box);
        term.await("ready> ");
        term.type("touch made\r");
        term.await(ASKED);
        answer("n");
        sentinel(13);
        term.type("exit 4\r");
        assertThat(term.exitCode()).isEqualTo(4);
    }

    @Test
    void theTerminalIsRestoredAfterwards() throws Exception {
        term = TestTerminal.run(box, List.of("/bin/bash", "-c", "stty -g > before; "
                + io.shellgate.it.agents.Hooks.word(Processes.launcher().toString()) + " shell --shell bash; stty -g > after; echo done-$((2+2))"));
        term.await("ready> ");
        term.type("exit\r");
        term.await("done-4");
        assertThat(box.work.resolve("after")).hasSameTextualContentAs(box.work.resolve("before"));
    }

    private static byte[] content(int size) {
        Random r = new Random(42);
        byte[] utf8 = "é€ü→".getBytes(StandardCharsets.UTF_8);
        byte[] out = new byte[size];
        int i = 0;
        while (i < size) {
            if (r.nextInt(50) == 0 && i + utf8.length <= size) {
                System.arraycopy(utf8, 0, out, i, utf8.length);
                i += utf8.length;
            } else {
                out[i++] = (byte) (r.nextInt(50) == 0 ? '\t' : 32 + r.nextInt(95));
            }
        }
        return out;
    }
}
