package io.shellgate.launcher.internal.gate;

import io.shellgate.reviewer.config.GateConfig;
import io.shellgate.reviewer.Gatekeeper;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The gates of a process that serves several clients (the judge server): one per client
 * configuration, which each request names with its gate's environment ({@code settings-env}, else
 * {@code env}: the environment {@code shellgate -c} or the JVM was started with). A process that
 * serves one client builds one gate and keeps it.
 */
public final class Gatekeepers {

    private static final int MAX_KEPT = 16;

    private final Path explicit;
    private final Map<Map<String, String>, Gatekeeper> kept = new LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<Map<String, String>, Gatekeeper> eldest) {
            return size() > MAX_KEPT;
        }
    };
    private Map<String, String> lastEnv;
    private Gatekeeper last;

    /** @param explicit a policy file on top of the others for every request ({@code serve --policy}), or null */
    public Gatekeepers(Path explicit) {
        this.explicit = explicit;
    }

    /** Whether every request's policy has {@code serve --policy FILE} on top. */
    public boolean hasExplicitPolicy() {
        return explicit != null;
    }

    /** The gate configured by {@code env}, the environment of the process that started the client's gate. */
    public synchronized Gatekeeper forEnvironment(Map<String, String> env) {
        // most requests of a connection name the same environment, kept as one map
        if (env == lastEnv) {
            return last;
        }
        Gatekeeper g = kept.computeIfAbsent(Map.copyOf(env), e -> Gatekeeper.of(GateConfig.of(e, explicit)));
        lastEnv = env;
        last = g;
        return g;
    }
}
