package io.shellgate.it;

/**
 * {@code shellgate approvals --watch} in a terminal of the test's own: the person who says "I am
 * watching" and answers with one key.
 */
final class ApprovalsWatch implements AutoCloseable {

    /** The end of every question the watcher shows. */
    static final String QUESTION = "[n] refuse: ";

    private final TestTerminal term;

    private ApprovalsWatch(TestTerminal term) {
        this.term = term;
    }

    /** Starts watching the sandbox's state directory, and waits until it watches. */
    static ApprovalsWatch start(Sandbox box) throws Exception {
        ApprovalsWatch w = new ApprovalsWatch(TestTerminal.start(box, "approvals", "--watch"));
        w.term.await("stops watching");
        return w;
    }

    /** Waits for the next question and returns all it shows (who asked, where, the command, why). */
    String awaitQuestion() throws InterruptedException {
        return term.await(QUESTION);
    }

    /**
     * Answers the question on the screen with one key, as a person who read it would: some time after
     * it was drawn (a key within {@code KeyAnswer.SETTLE} of it is no answer). Returns what the
     * watcher printed after it.
     */
    String answer(String key) throws Exception {
        Thread.sleep(400);
        term.type(key);
        return term.await("\n");
    }

    /** Types text at once, as a paste or a program writing to the terminal would. */
    String typeAtOnce(String text) throws Exception {
        Thread.sleep(400);
        term.type(text);
        return term.await("\n");
    }

    TestTerminal terminal() {
        return term;
    }

    @Override
    public void close() {
        term.close();
    }
}
