package io.shellgate.interceptor.internal;

import io.shellgate.client.FileQuestions;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Allows that a judge offered for reuse, by request, each with the file facts it rests on: the
 * next start of the same request asks those questions again ({@link FileQuestions}) and reuses
 * the allow, without judging, only when every answer is the same. Every start on a reused allow
 * still goes to the audit log: a daemon thread hands them to the {@link Log} every
 * {@value #SEND_MILLIS} ms, and a shutdown hook hands over the rest at exit.
 */
final class ReusedAllows {

    /** How often the starts on reused allows are handed over to be logged. */
    static final long SEND_MILLIS = 100;
    static final int MAX_ALLOWS = 256;
    /** Longer command lines are judged every time rather than kept. */
    static final int MAX_COMMAND = 8192;
    /** More starts than this waiting to be logged (a log that stopped taking them): nothing is reused. */
    static final int MAX_WAITING = 100_000;

    /** Where the starts on reused allows are logged. */
    interface Log {
        /**
         * Logs every batch; called by one thread at a time.
         *
         * @param atExit whether the JVM is exiting (do not start anything that could hold it up)
         */
        void log(List<Batch> batches, boolean atExit);
    }

    /** The starts on one allow: its request, what the judge gave with it ({@code handle}), and their times. */
    record Batch(Request request, Object handle, long[] times) {}

    /**
     * A request as a key: what is judged, where, in which environment (the JVM's own, which never
     * changes, is the same map every time). Compared field by field, by hand: a record's own
     * equals goes through method handles, slow while a JVM's first starts run interpreted.
     */
    static final class Request {
        final JudgeLine line;
        final Map<String, String> env;
        final Path cwd;
        private final int hash;

        Request(JudgeLine line, Map<String, String> env, Path cwd) {
            this.line = line;
            this.env = env;
            this.cwd = cwd;
            this.hash = line.command().hashCode() * 31 + cwd.hashCode();
        }

        @Override
        public boolean equals(Object o) {
            if (!(o instanceof Request r)) {
                return false;
            }
            List<String> a = line.argv();
            List<String> b = r.line.argv();
            return hash == r.hash && line.command().equals(r.line.command()) && (a == null ? b == null : a.equals(b))
                    && cwd.equals(r.cwd) && (env == r.env || env.equals(r.env));
        }

        @Override
        public int hashCode() {
            return hash;
        }
    }

    /** An allow to reuse: the outcome, the facts it rests on, and the judge's handle for logging starts on it. */
    private static final class Allow {
        final ProcessOutcome outcome;
        final FileQuestions facts;
        final Object handle;

        Allow(ProcessOutcome outcome, FileQuestions facts, Object handle) {
            this.outcome = outcome;
            this.facts = facts;
            this.handle = handle;
        }
    }

    private record Started(Request request, Allow allow, long at) {}

    private final Log log;
    private final ConcurrentHashMap<Request, Allow> allows = new ConcurrentHashMap<>();
    private final ConcurrentLinkedQueue<Started> started = new ConcurrentLinkedQueue<>();
    private final AtomicInteger waiting = new AtomicInteger();
    /** Whether allows are reused: not in a JVM that was exiting when the first process started. */
    private final boolean on;

    ReusedAllows(Log log) {
        this.log = log;
        boolean hooked;
        try {
            Runtime.getRuntime().addShutdownHook(Threads.daemon(() -> handOver(true), "shellgate-judge-ran-exit"));
            hooked = true;
        } catch (IllegalStateException e) {
            // the JVM is exiting already: nothing is reused, so that no start waits to be logged
            hooked = false;
        }
        on = hooked;
        if (on) {
            Threads.daemon(this::sender, "shellgate-judge-ran").start();
        }
    }

    /** The allow for this request when it may be reused and every fact still holds (the start is then logged), else null. */
    ProcessOutcome reuse(Request request) {
        Allow known = allows.get(request);
        if (known == null || !on || waiting.get() >= MAX_WAITING) {
            return null;
        }
        boolean holds;
        try {
            holds = known.facts.stillHold();
        } catch (RuntimeException e) {
            holds = false;
        }
        if (!holds) {
            allows.remove(request, known);
            return null;
        }
        waiting.incrementAndGet();
        started.add(new Started(request, known, System.currentTimeMillis()));
        return known.outcome;
    }

    /**
     * Keeps an allow the judge offered for reuse with {@code facts} (its {@code [op, path, answer]}
     * lists); a fact this agent cannot ask means it is not kept.
     */
    void offer(Request request, ProcessOutcome outcome, List<?> facts, Object handle) {
        if (!outcome.runs() || !"allow".equals(outcome.tier()) || facts == null
                || request.line.command().length() > MAX_COMMAND) {
            return;
        }
        FileQuestions questions = FileQuestions.of(facts);
        if (questions == null) {
            return;
        }
        if (allows.size() >= MAX_ALLOWS) {
            allows.clear();
        }
        allows.put(request, new Allow(outcome, questions, handle));
    }

    private void sender() {
        while (true) {
            try {
                Thread.sleep(SEND_MILLIS);
            } catch (InterruptedException e) {
                return;
            }
            handOver(false);
        }
    }

    /** Hands the starts waiting to the log, one batch per allow. */
    private synchronized void handOver(boolean atExit) {
        if (started.isEmpty()) {
            return;
        }
        Map<Allow, List<Started>> byAllow = new LinkedHashMap<>();
        for (Started s = started.poll(); s != null; s = started.poll()) {
            waiting.decrementAndGet();
            byAllow.computeIfAbsent(s.allow(), k -> new ArrayList<>()).add(s);
        }
        List<Batch> batches = new ArrayList<>(byAllow.size());
        for (List<Started> group : byAllow.values()) {
            long[] times = new long[group.size()];
            for (int i = 0; i < times.length; i++) {
                times[i] = group.get(i).at();
            }
            batches.add(new Batch(group.get(0).request(), group.get(0).allow().handle, times));
        }
        try {
            log.log(batches, atExit);
        } catch (RuntimeException e) {
            int lost = 0;
            for (Batch b : batches) {
                lost += b.times().length;
            }
            System.err.println("shellgate: " + lost + " process starts could not be logged: " + e);
        }
    }
}
