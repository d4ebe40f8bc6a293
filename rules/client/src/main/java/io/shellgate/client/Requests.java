package io.shellgate.client;

import java.util.LinkedHashMap;
import java.util.Map;

/** Request lines (docs/protocol.md, "Requests"), each one JSON object ended by {@code \n}. */
public final class Requests {

    private Requests() {}

    /** {@code ping}; {@code token} is the run directory's on TCP, null on the Unix socket. */
    public static String ping(String token) {
        return withToken("{\"v\":1,\"op\":\"ping\"", token);
    }

    /** {@code stop}, sent to a server older than the installed jar ({@link RunDirectory#olderThan}). */
    public static String stop(String token) {
        return withToken("{\"v\":1,\"op\":\"stop\"", token);
    }

    /**
     * Any request: {@code fields} in their order after {@code "v":1}, and the token last on TCP
     * (values as {@link Json#write} takes them).
     */
    public static String of(Map<String, ?> fields, String token) {
        Map<String, Object> all = new LinkedHashMap<>();
        all.put("v", 1L);
        all.putAll(fields);
        if (token != null) {
            all.put("token", token);
        }
        return Json.write(new StringBuilder(), all).append('\n').toString();
    }

    private static String withToken(String start, String token) {
        StringBuilder r = new StringBuilder(start);
        if (token != null) {
            Json.string(r.append(",\"token\":"), token);
        }
        return r.append("}\n").toString();
    }
}
