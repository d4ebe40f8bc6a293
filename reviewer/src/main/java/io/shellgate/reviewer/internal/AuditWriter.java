package io.shellgate.reviewer.internal;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import io.shellgate.judge.Dialect;
import io.shellgate.judge.JudgeRequest;
import io.shellgate.judge.Reason;
import io.shellgate.judge.Verdict;
import io.shellgate.reviewer.model.Decision;
import io.shellgate.reviewer.model.Origin;
import io.shellgate.reviewer.model.ReviewRequest;
import io.shellgate.reviewer.model.Step;
import io.shellgate.reviewer.internal.export.AuditSink;
import java.io.IOException;
import java.io.Writer;
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
public final class AuditWriter {

    private static final JsonFactory FACTORY = new JsonFactory();

    /**
     * One generator for every record, writing into a buffer that is emptied after each: making a
     * generator per record cost about a third of the record. Guarded by the class lock.
     */
    private static final StringBuilder BUFFER = new StringBuilder(512);
    private static JsonGenerator generator;

    /** Bounds on a record's parts: a record stays far below the log's rotation size, whatever the command. */
    private static final int MAX_COMMAND = 4096;
    private static final int MAX_TEXT = 1024;
    private static final int MAX_NAME = 256;
    private static final int MAX_REASONS = 32;

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

    public AuditWriter(Path stateDir) {
        this(stateDir, AuditSink.NONE);
    }

    private static final String UNKNOWN = " (the gate's answer was not taken: the client had stopped waiting for it,"
            + " so whether the command ran is not known; an agent may run a tool whose hook does not answer in time)";

    /** @param sink also receives every record written, once it is in the log (the OTLP export) */
    public AuditWriter(Path stateDir, AuditSink sink) {
        this.log = stateDir == null ? null : new AuditLog(stateDir);
        this.sink = sink;
    }

    /** Logs the decision now; returns why it could not be logged, or null when it was. */
    public String record(ReviewRequest r, Decision d) {
        return record(r, d, new long[] {System.currentTimeMillis()}, sink);
    }

    /** Logs the decision now, and hands its record to {@code export}; returns why it could not be logged, or null. */
    public String record(ReviewRequest r, Decision d, AuditSink export) {
        return record(r, d, new long[] {System.currentTimeMillis()}, export);
    }

    /** {@link #record(ReviewRequest, Decision, long[], AuditSink)} to this writer's own sink. */
    public String record(ReviewRequest r, Decision d, long[] times) {
        return record(r, d, times, sink);
    }

    /**
     * One record of the decision for each of {@code times} (milliseconds since the epoch), appended
     * together; returns why they could not be logged, or null when they were.
     */
    public String record(ReviewRequest r, Decision d, long[] times, AuditSink export) {
        if (times.length == 0) {
            return null;
        }
        try {
            return append(times, said(r, d), export);
        } catch (IOException | RuntimeException e) {
            return problem(e);
        }
    }

    /**
     * Logs a refusal that the gate made before any verdict ({@code policy-error}, {@code
     * judge-error}): the command, who asked, and why; returns why it could not be logged, or null.
     */
    public String recordRefusal(JudgeRequest request, Origin origin, String rule, String message) {
        try {
            StringBuilder rest;
            synchronized (AuditWriter.class) {
                JsonGenerator g = generator();
                BUFFER.setLength(0);
                g.writeStartObject();
                head(g, origin, request);
                g.writeStringField("tier", "error");
                g.writeBooleanField("run", false);
                g.writeStringField("step", Step.GATE.id());
                g.writeStringField("message", bounded(Redactor.redact(message), MAX_TEXT));
                g.writeArrayFieldStart("rules");
                g.writeString(rule);
                g.writeEndArray();
                g.writeArrayFieldStart("reasons");
                g.writeEndArray();
                g.writeEndObject();
                g.flush();
                rest = new StringBuilder(BUFFER.substring(1));
            }
            return append(new long[] {System.currentTimeMillis()}, rest.toString(), sink);
        } catch (IOException | RuntimeException e) {
            generator = null;
            return problem(e);
        }
    }

    private String append(long[] times, String said, AuditSink export) throws IOException {
        if (log == null) {
            return "no state directory (neither SHELLGATE_STATE_DIR, XDG_STATE_HOME nor HOME is set)";
        }
        log.append(times, said);
        // exported only once the local log, the source of truth, has it
        for (long t : times) {
            export.accept(timePart(t) + said);
        }
        return null;
    }

    private String problem(Exception e) {
        String why = e.getMessage() == null ? e.toString() : e.getMessage();
        return (log == null ? "" : log.directory() + ": ") + why;
    }

    /**
     * What a record says besides its time. The verdict is compared by identity: the judge hands
     * out the same one for a request it remembers (a tool starting the same program over and
     * over), and another instance only costs writing the record afresh.
     */
    private record Said(Verdict verdict, Origin origin, Path cwd, Dialect dialect, String command, boolean runs,
            boolean unknown, Step step, String message) {

        static Said of(ReviewRequest r, Decision d, boolean unknown) {
            return new Said(r.verdict(), r.origin(), r.request().cwd(), r.request().dialect(), r.request().command(), d.runs(),
                    unknown, d.step(), d.message());
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Said s && s.verdict == verdict && s.runs == runs && s.unknown == unknown && s.step == step
                    && s.dialect == dialect
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
        // a client that stopped waiting never got the answer: what its caller did (an agent runs a
        // tool whose hook did not answer in time) is not the gate's to say
        boolean unknown = r.clientGone().getAsBoolean();
        Said said = Said.of(r, d, unknown);
        String rest = SAID.get(said);
        if (rest == null) {
            rest = rest(r, d, unknown);
            if (SAID.size() >= MAX_SAID) {
                SAID.clear();
            }
            if (rest.length() <= MAX_SAID_TEXT) {
                SAID.put(said, rest);
            }
        }
        return rest;
    }

    private static JsonGenerator generator() throws IOException {
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
        return generator;
    }

    /** Every field after the time, and the closing brace, streamed field by field (no tree in between). */
    private static String rest(ReviewRequest r, Decision d, boolean unknown) throws IOException {
        JsonGenerator g = generator();
        BUFFER.setLength(0);
        try {
            write(g, r, d, unknown);
            g.flush();
        } catch (IOException | RuntimeException e) {
            // halfway through a record: the next one starts on a new generator
            generator = null;
            throw e;
        }
        // without the object's opening brace: the time goes first
        return BUFFER.substring(1);
    }

    /** The fields every record starts with: who asked, where, and the command (bounded, with its length and hash). */
    private static void head(JsonGenerator g, Origin origin, JudgeRequest request) throws IOException {
        g.writeStringField("entry", origin.entry().id());
        if (origin.pid() != 0) {
            g.writeNumberField("pid", origin.pid());
        }
        if (!origin.detail().isEmpty()) {
            g.writeStringField("detail", bounded(origin.detail(), MAX_NAME));
        }
        if (!origin.session().isEmpty()) {
            g.writeStringField("session", bounded(origin.session(), MAX_NAME));
        }
        g.writeStringField("cwd", bounded(request.cwd().toString(), MAX_TEXT));
        g.writeStringField("dialect", request.dialect().id());
        String command = request.command();
        String shown = Redactor.redact(command.length() > MAX_COMMAND * 4 ? command.substring(0, MAX_COMMAND * 4) : command);
        g.writeStringField("cmd", bounded(shown, MAX_COMMAND));
        if (shown.length() > MAX_COMMAND || command.length() > MAX_COMMAND * 4) {
            g.writeBooleanField("cmd-cut", true);
        }
        // what ran, exactly, however long: its length and hash (of the text as given, secrets included)
        g.writeNumberField("cmd-length", command.length());
        g.writeStringField("cmd-sha256", AuditChain.sha256(command));
    }

    private static String bounded(String text, int max) {
        if (text.length() <= max) {
            return text;
        }
        // never cut a surrogate pair in two
        int end = Character.isHighSurrogate(text.charAt(max - 1)) ? max - 1 : max;
        return text.substring(0, end);
    }

    private static void write(JsonGenerator g, ReviewRequest r, Decision d, boolean unknown) throws IOException {
        g.writeStartObject();
        head(g, r.origin(), r.request());
        g.writeStringField("tier", r.verdict().tier().id());
        if (unknown || d.step() == Step.AGENT && !d.runs()) {
            // not known: the client went away, or the agent's own dialog decides
            g.writeNullField("run");
        } else {
            g.writeBooleanField("run", d.runs());
        }
        g.writeStringField("step", d.step().id());
        g.writeStringField("message", bounded(Redactor.redact(d.message() + (unknown ? UNKNOWN : "")), MAX_TEXT));
        List<Reason> deciding = r.verdict().deciding();
        g.writeArrayFieldStart("rules");
        Set<String> rules = new HashSet<>();
        for (Reason reason : deciding) {
            if (rules.size() < MAX_REASONS && rules.add(reason.rule())) {
                g.writeString(reason.rule());
            }
        }
        g.writeEndArray();
        g.writeArrayFieldStart("reasons");
        for (Reason reason : deciding.subList(0, Math.min(deciding.size(), MAX_REASONS))) {
            g.writeString(bounded(Redactor.redact(reason.message()), MAX_TEXT));
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
