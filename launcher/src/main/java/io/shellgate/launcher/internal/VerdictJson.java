package io.shellgate.launcher.internal;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.shellgate.judge.CommandInfo;
import io.shellgate.judge.Reason;
import io.shellgate.judge.Verdict;

/**
 * The JSON form of a verdict. Field names are stable: tools and CI scripts depend on them.
 * {@code cmd}, {@code tier}, {@code reasons[].rule}, {@code reasons[].tier}, {@code reasons[].message},
 * {@code reasons[].span}, {@code commands[].argv}, {@code commands[].wrappers},
 * {@code commands[].resolved}, {@code commands[].tier}.
 */
final class VerdictJson {

    static final ObjectMapper MAPPER = new ObjectMapper();

    private VerdictJson() {}

    static ObjectNode of(String cmd, Verdict v) {
        ObjectNode out = MAPPER.createObjectNode();
        out.put("cmd", cmd);
        out.put("tier", v.tier().id());
        ArrayNode reasons = out.putArray("reasons");
        for (Reason r : v.bySeverity()) {
            ObjectNode o = reasons.addObject();
            o.put("rule", r.rule());
            o.put("tier", r.tier().id());
            o.put("message", r.message());
            ObjectNode span = o.putObject("span");
            span.put("start", r.span().start());
            span.put("end", r.span().end());
        }
        ArrayNode commands = out.putArray("commands");
        for (CommandInfo c : v.commands()) {
            ObjectNode o = commands.addObject();
            ArrayNode argv = o.putArray("argv");
            c.argv().forEach(argv::add);
            ArrayNode wrappers = o.putArray("wrappers");
            c.wrappers().forEach(wrappers::add);
            o.put("resolved", c.resolved());
            o.put("tier", c.tier().id());
        }
        return out;
    }
}
