package io.shellgate.interceptor.internal;

import io.shellgate.client.Json;
import java.nio.file.Path;
import java.util.Map;

/**
 * The javaagent's request lines to the judge server (docs/protocol.md, {@code judge} and
 * {@code ran}; docs/protocol/javaagent-*.json), written by hand for speed: most of a line is the
 * same for every process of this JVM and is written once.
 */
final class AgentRequests {

    /** The name the JVM's own environment has on a connection. */
    static final String JVM_ENV = "jvm";
    private static final String JUDGE = "{\"v\":1,\"op\":\"judge\",";
    private static final String RAN = "{\"v\":1,\"op\":\"ran\",\"times\":[";

    /** The request's last field, the same for every request from this JVM. */
    private final String originJson = originJson(OriginInfo.current());
    /** Most processes inherit the JVM's own environment, which never changes: written as JSON once. */
    private final Map<String, String> jvmEnv = System.getenv();
    private final String jvmEnvJson = envJson(jvmEnv);

    /** Whether {@code env} is the JVM's own (the same map, not an equal one). */
    boolean isJvmEnv(Map<String, String> env) {
        return env == jvmEnv;
    }

    /**
     * The request line. The JVM's own environment goes with the id {@value #JVM_ENV}; once the
     * server has said it keeps it on a connection ({@code sent}), later requests on it send only
     * the id (the environment, a few kilobytes, was otherwise written and parsed for every process).
     * A process with an environment of its own is judged in it, with the JVM's as the one the
     * policies and review settings come from ({@code settings-env}): a child without {@code HOME}
     * must not leave the user's policy and the audit log behind.
     */
    String judge(JudgeLine line, Map<String, String> env, Path cwd, boolean sent) {
        StringBuilder r = new StringBuilder(256 + 64 * env.size());
        r.append(JUDGE).append("\"entry\":\"javaagent\",\"review\":true,\"interim\":true,\"brief\":true,\"recheck\":true,"
                + "\"fresh\":true,\"cmd\":");
        Json.string(r, line.command()).append(",\"dialect\":\"bash\",\"cwd\":");
        Json.string(r, cwd.toString());
        if (env != jvmEnv) {
            r.append(",\"env\":").append(envJson(env)).append(",\"settings-env\":")
                    .append(sent ? "\"" + JVM_ENV + "\"" : jvmEnvJson);
        } else if (sent) {
            r.append(",\"env-id\":\"" + JVM_ENV + "\"");
        } else {
            r.append(",\"env-id\":\"" + JVM_ENV + "\",\"env\":").append(jvmEnvJson);
        }
        if (line.argv() != null) {
            r.append(",\"argv\":[");
            for (int i = 0; i < line.argv().size(); i++) {
                Json.string(i == 0 ? r : r.append(','), line.argv().get(i));
            }
            r.append(']');
        }
        return r.append(originJson).toString();
    }

    /**
     * The {@code ran} notice of the starts on one allow (its handle is the server's token): the
     * times, the token, then the request it reused; {@code sent} as for {@link #judge}.
     */
    String ran(ReusedAllows.Batch batch, boolean sent) {
        ReusedAllows.Request first = batch.request();
        StringBuilder r = new StringBuilder(RAN);
        for (int i = 0; i < batch.times().length; i++) {
            (i == 0 ? r : r.append(',')).append(batch.times()[i]);
        }
        Json.string(r.append("],\"token\":"), (String) batch.handle()).append(",");
        String judge = judge(first.line, first.env, first.cwd, sent);
        return r.append(judge, JUDGE.length(), judge.length()).toString();
    }

    private static String originJson(OriginInfo origin) {
        StringBuilder r = new StringBuilder(",\"origin\":{\"entry\":\"javaagent\",\"pid\":").append(origin.pid());
        Json.string(r.append(",\"detail\":"), origin.detail());
        return Json.string(r.append(",\"session\":"), origin.session()).append("}}\n").toString();
    }

    private static String envJson(Map<String, String> env) {
        StringBuilder r = new StringBuilder(2 + 64 * env.size()).append('{');
        boolean first = true;
        for (Map.Entry<String, String> e : env.entrySet()) {
            if (!first) {
                r.append(',');
            }
            first = false;
            Json.string(r, e.getKey()).append(':');
            Json.string(r, e.getValue());
        }
        return r.append('}').toString();
    }
}
