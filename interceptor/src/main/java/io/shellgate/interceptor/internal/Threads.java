package io.shellgate.interceptor.internal;

/** The agent's own threads. */
final class Threads {

    private Threads() {}

    /** A daemon thread, not started, that inherits nothing from the tool's thread that makes it (no thread locals, no context loader). */
    static Thread daemon(Runnable body, String name) {
        Thread t = new Thread(null, body, name, 0, false);
        t.setContextClassLoader(null);
        t.setDaemon(true);
        return t;
    }
}
