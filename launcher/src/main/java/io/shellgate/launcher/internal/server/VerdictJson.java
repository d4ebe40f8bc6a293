package io.shellgate.launcher.internal.server;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.shellgate.judge.Verdict;
import io.shellgate.launcher.internal.server.Protocol;

/**
 * The JSON form of a verdict. Field names are stable: tools and CI scripts depend on them.
 * {@code cmd}, {@code tier}, {@code reasons[].rule}, {@code reasons[].tier}, {@code reasons[].message},
 * {@code reasons[].span}, {@code commands[].argv}, {@code commands[].wrappers},
 * {@code commands[].resolved}, {@code commands[].tier}.
 */
public final class VerdictJson {

    public static final ObjectMapper MAPPER = new ObjectMapper();

    private VerdictJson() {}

    public static ObjectNode of(String cmd, Verdict v) {
        ObjectNode out = MAPPER.createObjectNode();
        out.put("cmd", cmd);
        out.put("tier", v.tier().id());
        Protocol.details(out, v, true);
        return out;
    }
}
