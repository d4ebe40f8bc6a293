package io.shellgate.reviewer.config;

import io.shellgate.reviewer.config.StateDir;
import io.shellgate.rules.PolicyLoader;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;

/**
 * The gate's own configuration, fixed when a process builds its gate: the environment of the
 * process that started the gate (the {@code shellgate shell}, session, {@code -c} or {@code serve}
 * process's own, a JVM's own; never a command's or a shell's live environment, which only says
 * what the command will see), and a policy file given on its command line. From it alone come the
 * user policy, the state directory (audit log, approvals desk), the review's settings (person
 * time-out, the LLM reviewer) and whether terminals may be asked.
 *
 * @param env the environment of the process that started the gate
 * @param explicitPolicy a policy file on top of the others ({@code --policy}, {@code policy=}), or null
 * @param terminalsNotAsked why no terminal is asked (an agent may type there), or null when they may be
 */
public record GateConfig(Map<String, String> env, Path explicitPolicy, String terminalsNotAsked) {

    public GateConfig {
        env = Map.copyOf(env);
        explicitPolicy = explicitPolicy == null ? null : explicitPolicy.toAbsolutePath().normalize();
    }

    /** The configuration of a gate started with {@code env}; under {@code wrap} its terminals are the agent's. */
    public static GateConfig of(Map<String, String> env, Path explicitPolicy) {
        String why = null;
        if ("1".equals(env.get("SHELLGATE_WRAPPED"))) {
            why = "it belongs to an agent run by shellgate wrap";
        } else if ("0".equals(env.get("SHELLGATE_ASK_TTY"))) {
            why = "SHELLGATE_ASK_TTY=0";
        }
        return new GateConfig(env, explicitPolicy, why);
    }

    /** The same, with terminals never asked, for {@code why}. */
    public GateConfig withTerminalsNotAsked(String why) {
        return new GateConfig(env, explicitPolicy, why);
    }

    /** Where the audit log and the approvals desk live; null when neither a state directory nor a home is set. */
    public Path stateDir() {
        return StateDir.of(env);
    }

    /** Where the user's policy file is, whether or not it exists. */
    public Optional<Path> userPolicy() {
        return PolicyLoader.userPolicyPath(env);
    }
}
