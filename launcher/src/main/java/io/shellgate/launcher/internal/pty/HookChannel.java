package io.shellgate.launcher.internal.pty;

import java.io.IOException;

/** The private channel between the shell's integration and the proxy: one message at a time. */
public interface HookChannel extends AutoCloseable {

    /** One message, and the way to answer it. */
    interface Exchange {
        byte[] message();

        /** Answers a check with one line. */
        void reply(String line) throws IOException;

        /** Ends an exchange that needs no verdict (a prompt): the shell waits for an {@code ok}. */
        void acknowledge() throws IOException;
    }

    /** Waits for the next message; null once the channel is closed. */
    Exchange next() throws IOException;

    @Override
    void close();
}
