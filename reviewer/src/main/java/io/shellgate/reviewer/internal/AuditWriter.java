package io.shellgate.reviewer.internal;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import io.shellgate.judge.Dialect;
import io.shellgate.judge.Reason;
import io.shellgate.judge.Verdict;
import io.shellgate.reviewer.Decision;
import io.shellgate.reviewer.Origin;
import io.shellgate.reviewer.ReviewRequest;
import io.shellgate.reviewer.Step;
import io.shellgate.reviewer.internal.export.AuditSink;
import java.io.IOException;
import java.io.Writer;
import java.lang.System.Logger.Level;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** Turns decisions into audit records, with secrets redacted. */
final class AuditWriter {

    private static final System.Logger LOG = System.getLogger("io.shellgate.reviewer");
    private static final JsonFactory FACTORY = new JsonFactory();

    /**
     * One generator for every record, writing into a buffer that is emptied after each: making a
     * generator per record cost about a third of the record. Guarded by the class lock.
     */
    private static final StringBuilder BUFFER = new StringBuilder(512);
    private static JsonGenerator generator;

    private static final int MAX_SAID = 256;
    /** Records of longer command lines are written afresh every time rather than kept. */
    private static final int MAX_SAID_TEXT = 4096;
    /**
     * The records' text after the time, for what was said recently (guarded by the class lock):
     * redacting and writing the same record again was most of the review's cost for a repeated
     * command, and all of it while the JIT had not compiled that code yet.
     */
    private static final Map<Said, String> SAID = new HashMap<>();

    private final AuditLog log;
    private final AuditSink sink;

    AuditWriter(Path stateDir) {
        this(stateDir, AuditSink.NONE);
    }

    /** @param sink also receives every record written (the OTLP export) */
    AuditWriter(Path stateDir, AuditSink sink) {
        this.log = stateDir == null ? null : new AuditLog(stateDir);
        this.sink = sink;
    }

    void record(ReviewRequest r, Decision d) {
        record(r, d, new long[] {System.currentTimeMillis()});
    }

    /** One record of the decision for each of {@code times} (milliseconds since the epoch), appended together. */
    void record(ReviewRequest r, Decision d, long[] times) {
        if (log == null || times.length == 0) {
            return;
        }
        try {
            String said = said(r, d);
            StringBuilder lines = new StringBuilder();
            for (long t : times) {
                (lines.isEmpty() ? lines : lines.append('\n')).append(timePart(t)).append(said);
            }
            log.append(lines.toString());
            for (long t : times) {
                sink.accept(timePart(t) + said);
            }
        } catch (IOException | RuntimeException e) {
            // the decision stands; losing its record must not turn a refusal into a crash
            LOG.log(Level.WARNING, "shellgate: cannot write the audit log: " + e.getMessage());
        }
    }

    /**
     * What a record says besides its time. The verdict is compared by identity: the judge hands
     * out the same one for a request it remembers (a tool starting the same program over and
     * over), and another instance only costs writing the record afresh.
     */
    private record Said(Verdict verdict, Origin origin, Path cwd, Dialect dialect, String command, boolean runs,
            Step step, String message) {

        static Said of(ReviewRequest r, Decision d) {
            return new Said(r.verdict(), r.origin(), r.request().cwd(), r.request().dialect(), r.request().command(), d.runs(),
                    d.step(), d.message());
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Said s && s.verdict == verdict && s.runs == runs && s.step == step && s.dialect == dialect
                    && s.command.equals(command) && s.message.equals(message) && s.cwd.equals(cwd) && s.origin.equals(origin);
        }

        @Override
        public int hashCode() {
            return System.identityHashCode(verdict) * 31 + command.hashCode();
        }
    }

    /** The record as one line of compact JSON: the time, then what it says. */
    static String line(ReviewRequest r, Decision d) throws IOException {
        return timePart(System.currentTimeMillis()) + said(r, d);
    }

    private static String timePart(long millis) {
        return "{\"time\":\"" + Timestamps.of(millis) + "\",";
    }

    /** What the record says after its time, kept for what was said recently. */
    private static synchronized String said(ReviewRequest r, Decision d) throws IOException {
        Said said = Said.of(r, d);
        String rest = SAID.get(said);
        if (rest == null) {
            rest = rest(r, d);
            if (SAID.size() >= MAX_SAID) {
                SAID.clear();
            }
            if (rest.length() <= MAX_SAID_TEXT) {
                SAID.put(said, rest);
            }
        }
        return rest;
    }

    /** Every field after the time, and the closing brace, streamed field by field (no tree in between). */
    private static String rest(ReviewRequest r, Decision d) throws IOException {
        if (generator == null) {
            generator = FACTORY.createGenerator(new Writer() {
                @Override
                public void write(char[] chars, int offset, int length) {
                    BUFFER.append(chars, offset, length);
                }

                @Override
                public void flush() {}

                @Override
                public void close() {}
            }).setRootValueSeparator(null);
        }
        BUFFER.setLength(0);
        try {
            write(generator, r, d);
            generator.flush();
        } catch (IOException | RuntimeException e) {
            // halfway through a record: the next one starts on a new generator
            generator = null;
            throw e;
        }
        // without the object's opening brace: the time goes first
        return BUFFER.substring(1);
    }

    private static void write(JsonGenerator g, ReviewRequest r, Decision d) throws IOException {
        g.writeStartObject();
        g.writeStringField("entry", r.origin().entry().id());
        if (r.origin().pid() != 0) {
            g.writeNumberField("pid", r.origin().pid());
        }
        if (!r.origin().detail().isEmpty()) {
            g.writeStringField("detail", r.origin().detail());
        }
        if (!r.origin().session().isEmpty()) {
            g.writeStringField("session", r.origin().session());
        }
        g.writeStringField("cwd", r.request().cwd().toString());
        g.writeStringField("dialect", r.request().dialect().id());
        g.writeStringField("cmd", Redactor.redact(r.request().command()));
        g.writeStringField("tier", r.verdict().tier().id());
        g.writeBooleanField("run", d.runs());
        g.writeStringField("step", d.step().id());
        g.writeStringField("message", Redactor.redact(d.message()));
        List<Reason> deciding = r.verdict().deciding();
        g.writeArrayFieldStart("rules");
        Set<String> rules = new HashSet<>();
        for (Reason reason : deciding) {
            if (rules.add(reason.rule())) {
                g.writeString(reason.rule());
            }
        }
        g.writeEndArray();
        g.writeArrayFieldStart("reasons");
        for (Reason reason : deciding) {
            g.writeString(Redactor.redact(reason.message()));
        }
        g.writeEndArray();
        g.writeEndObject();
    }

    /** UTC times as {@code 2026-11-30T02:03:04.567Z}, the date and time of day formatted once per second. */
    static final class Timestamps {

        private static final DateTimeFormatter SECOND = DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss");
        private static long second = Long.MIN_VALUE;
        private static String prefix = "";

        private Timestamps() {}

        static synchronized String of(long millis) {
            long s = Math.floorDiv(millis, 1000);
            if (s != second) {
                prefix = SECOND.format(LocalDateTime.ofEpochSecond(s, 0, ZoneOffset.UTC));
                second = s;
            }
            int ms = (int) Math.floorMod(millis, 1000);
            return prefix + '.' + (char) ('0' + ms / 100) + (char) ('0' + ms / 10 % 10) + (char) ('0' + ms % 10) + 'Z';
        }
    }
}
