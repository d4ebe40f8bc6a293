package io.shellgate.reviewer.internal;

import io.shellgate.judge.Reason;
import io.shellgate.reviewer.Decision;
import io.shellgate.reviewer.ReviewRequest;
import java.io.IOException;
import java.lang.System.Logger.Level;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/** Turns decisions into audit records, with secrets redacted. */
final class AuditWriter {

    private static final System.Logger LOG = System.getLogger("io.shellgate.reviewer");

    private final AuditLog log;

    AuditWriter(Path stateDir) {
        this.log = stateDir == null ? null : new AuditLog(stateDir);
    }

    void record(ReviewRequest r, Decision d) {
        if (log == null) {
            return;
        }
        try {
            log.append(line(r, d));
        } catch (IOException | RuntimeException e) {
            // the decision stands; losing its record must not turn a refusal into a crash
            LOG.log(Level.WARNING, "shellgate: cannot write the audit log: " + e.getMessage());
        }
    }

    /** The record as one line of compact JSON, written field by field. */
    static String line(ReviewRequest r, Decision d) {
        StringBuilder out = new StringBuilder(384);
        out.append("{\"time\":\"");
        Timestamps.append(out, System.currentTimeMillis());
        out.append('"');
        field(out, "entry", r.origin().entry().id());
        if (r.origin().pid() != 0) {
            out.append(",\"pid\":").append(r.origin().pid());
        }
        if (!r.origin().detail().isEmpty()) {
            field(out, "detail", r.origin().detail());
        }
        if (!r.origin().session().isEmpty()) {
            field(out, "session", r.origin().session());
        }
        field(out, "cwd", r.request().cwd().toString());
        field(out, "dialect", r.request().dialect().id());
        field(out, "cmd", Redactor.redact(r.request().command()));
        field(out, "tier", r.verdict().tier().id());
        out.append(",\"run\":").append(d.runs());
        field(out, "step", d.step().id());
        field(out, "message", Redactor.redact(d.message()));
        List<Reason> deciding = r.verdict().deciding();
        out.append(",\"rules\":[");
        Set<String> rules = new HashSet<>();
        for (Reason reason : deciding) {
            if (rules.add(reason.rule())) {
                string(rules.size() == 1 ? out : out.append(','), reason.rule());
            }
        }
        out.append("],\"reasons\":[");
        for (int i = 0; i < deciding.size(); i++) {
            string(i == 0 ? out : out.append(','), Redactor.redact(deciding.get(i).message()));
        }
        return out.append("]}").toString();
    }

    private static void field(StringBuilder out, String name, String value) {
        out.append(",\"").append(name).append("\":");
        string(out, value);
    }

    /** A JSON string: quotes, backslashes and control characters escaped, everything else as it is. */
    static void string(StringBuilder out, String s) {
        out.append('"');
        int plain = 0;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c >= 0x20 && c != '"' && c != '\\') {
                continue;
            }
            out.append(s, plain, i);
            plain = i + 1;
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                case '\t' -> out.append("\\t");
                case '\r' -> out.append("\\r");
                default -> out.append("\\u00").append(HEX[c >> 4]).append(HEX[c & 0xf]);
            }
        }
        out.append(s, plain, s.length()).append('"');
    }

    private static final char[] HEX = "0123456789abcdef".toCharArray();

    /** UTC times as {@code 2026-11-30T02:03:04.567Z}, the date and time of day formatted once per second. */
    static final class Timestamps {

        private static final DateTimeFormatter SECOND = DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss");
        private static long second = Long.MIN_VALUE;
        private static String prefix = "";

        private Timestamps() {}

        static synchronized void append(StringBuilder out, long millis) {
            long s = Math.floorDiv(millis, 1000);
            if (s != second) {
                prefix = SECOND.format(LocalDateTime.ofEpochSecond(s, 0, ZoneOffset.UTC));
                second = s;
            }
            int ms = (int) Math.floorMod(millis, 1000);
            out.append(prefix).append('.').append((char) ('0' + ms / 100)).append((char) ('0' + ms / 10 % 10))
                    .append((char) ('0' + ms % 10)).append('Z');
        }
    }
}
