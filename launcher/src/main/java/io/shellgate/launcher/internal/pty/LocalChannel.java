package io.shellgate.launcher.internal.pty;

import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.function.Consumer;

/** A channel inside the proxy, for a line editor of its own (cmd): messages and replies never leave the process. */
final class LocalChannel implements HookChannel {

    private static final Exchange END = new Exchange() {
        @Override
        public byte[] message() {
            return new byte[0];
        }

        @Override
        public void reply(String line) {}

        @Override
        public void acknowledge() {}
    };

    private final BlockingQueue<Exchange> queue = new LinkedBlockingQueue<>();

    /** Posts a message; {@code onReply} gets the reply line (not called for acknowledged messages). */
    void post(byte[] message, Consumer<String> onReply) {
        queue.add(new Exchange() {
            @Override
            public byte[] message() {
                return message;
            }

            @Override
            public void reply(String line) {
                onReply.accept(line);
            }

            @Override
            public void acknowledge() {
                // nothing waits for it
            }
        });
    }

    @Override
    public Exchange next() {
        try {
            Exchange e = queue.take();
            return e == END ? null : e;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        }
    }

    @Override
    public void close() {
        queue.add(END);
    }
}
