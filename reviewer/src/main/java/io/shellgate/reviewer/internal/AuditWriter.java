package io.shellgate.reviewer.internal;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.shellgate.judge.Reason;
import io.shellgate.reviewer.Decision;
import io.shellgate.reviewer.ReviewRequest;
import io.shellgate.rules.JsonTrees;
import java.io.IOException;
import java.lang.System.Logger.Level;
import java.nio.file.Path;
import java.time.Instant;

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
            log.append(JsonTrees.write(json(r, d)));
        } catch (IOException | RuntimeException e) {
            // the decision stands; losing its record must not turn a refusal into a crash
            LOG.log(Level.WARNING, "shellgate: cannot write the audit log: " + e.getMessage());
        }
    }

    static ObjectNode json(ReviewRequest r, Decision d) {
        ObjectNode n = JsonNodeFactory.instance.objectNode();
        n.put("time", Instant.now().toString());
        n.put("entry", r.origin().entry().id());
        if (r.origin().pid() != 0) {
            n.put("pid", r.origin().pid());
        }
        if (!r.origin().detail().isEmpty()) {
            n.put("detail", r.origin().detail());
        }
        if (!r.origin().session().isEmpty()) {
            n.put("session", r.origin().session());
        }
        n.put("cwd", r.request().cwd().toString());
        n.put("dialect", r.request().dialect().id());
        n.put("cmd", Redactor.redact(r.request().command()));
        n.put("tier", r.verdict().tier().id());
        n.put("run", d.runs());
        n.put("step", d.step().id());
        n.put("message", Redactor.redact(d.message()));
        ArrayNode rules = n.putArray("rules");
        ArrayNode reasons = n.putArray("reasons");
        for (Reason reason : r.verdict().deciding()) {
            if (!containsText(rules, reason.rule())) {
                rules.add(reason.rule());
            }
            reasons.add(Redactor.redact(reason.message()));
        }
        return n;
    }

    private static boolean containsText(ArrayNode array, String text) {
        for (var e : array) {
            if (e.asText().equals(text)) {
                return true;
            }
        }
        return false;
    }
}
