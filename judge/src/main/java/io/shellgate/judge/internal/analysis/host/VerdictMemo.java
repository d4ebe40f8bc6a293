package io.shellgate.judge.internal.analysis.host;

import io.shellgate.judge.JudgeRequest;
import io.shellgate.judge.Verdict;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Predicate;

/**
 * Allow verdicts already reached, each with the questions its analysis asked the machine (which
 * file a name runs, whether that directory is trusted, where a link points, what a glob matches,
 * the repository's git config). A request equal in every field (text, dialect, directory, the
 * whole environment) gets the remembered verdict only when every one of those questions, asked
 * again, gets the same answer: the analysis is a function of the request, the policy and those
 * answers, so it would reach the same verdict. Anything else is judged afresh. Only allows are
 * kept: asks and denials are rare, and one reached because a time budget ran out must not stick.
 */
public final class VerdictMemo {

    static final int MAX_ENTRIES = 256;
    /** Longer lines are judged every time rather than kept. */
    static final int MAX_TEXT = 4096;
    /** The fields of a request that {@link Key#equals} compares: all of them. */
    static final List<String> COMPARED = List.of("command", "dialect", "cwd", "env", "positional", "freshShell", "argv");

    private record Remembered(Verdict verdict, List<Predicate<HostView>> answers) {}

    /**
     * A request as a key: equal when the requests are, field by field (the record's own equals
     * goes through method handles, slow until the JIT has compiled them: it was a tenth of a
     * javaagent start's judging in a JVM's first starts; {@link #COMPARED} names every field), but
     * hashed without the environment, whose every variable would be hashed again for each lookup
     * (a process's environment is usually the same map, which equality checks first).
     */
    private record Key(JudgeRequest request) {

        @Override
        public boolean equals(Object o) {
            if (!(o instanceof Key k)) {
                return false;
            }
            JudgeRequest a = request;
            JudgeRequest b = k.request;
            return a.freshShell() == b.freshShell() && a.dialect() == b.dialect() && a.command().equals(b.command())
                    && a.cwd().equals(b.cwd()) && Objects.equals(a.argv(), b.argv())
                    && Objects.equals(a.positional(), b.positional()) && a.env().equals(b.env());
        }

        @Override
        public int hashCode() {
            return (request.command().hashCode() * 31 + request.dialect().ordinal()) * 31 + request.cwd().hashCode();
        }
    }

    private final Map<Key, Remembered> entries = new LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<Key, Remembered> eldest) {
            return size() > MAX_ENTRIES;
        }
    };

    /** The remembered verdict for {@code request}, if the machine still answers as it did, else null. */
    public Verdict recall(JudgeRequest request, HostView host) {
        if (request.command().length() > MAX_TEXT) {
            return null;
        }
        Key key = new Key(request);
        Remembered e;
        synchronized (entries) {
            e = entries.get(key);
        }
        if (e == null) {
            return null;
        }
        for (Predicate<HostView> answer : e.answers) {
            if (!answer.test(host)) {
                synchronized (entries) {
                    entries.remove(key, e);
                }
                return null;
            }
        }
        return e.verdict;
    }

    /** The questions the remembered allow for {@code request} was reached with, or null when none is remembered. */
    public List<Predicate<HostView>> answers(JudgeRequest request) {
        if (request.command().length() > MAX_TEXT) {
            return null;
        }
        Remembered e;
        synchronized (entries) {
            e = entries.get(new Key(request));
        }
        return e == null ? null : e.answers;
    }

    public void remember(JudgeRequest request, Verdict verdict, List<Predicate<HostView>> answers) {
        if (request.command().length() > MAX_TEXT) {
            return;
        }
        synchronized (entries) {
            entries.put(new Key(request), new Remembered(verdict, answers));
        }
    }
}
