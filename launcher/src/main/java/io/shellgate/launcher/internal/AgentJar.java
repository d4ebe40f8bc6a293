package io.shellgate.launcher.internal;

import java.nio.file.Files;
import java.nio.file.Path;

/** Finds shellgate's javaagent jar for {@code wrap --javaagent} and {@code attach}. */
final class AgentJar {

    private AgentJar() {}

    /**
     * The jar named on the command line, else {@code $SHELLGATE_AGENT_JAR}, else
     * {@code shellgate-agent.jar} next to the launcher, as an absolute path.
     *
     * @throws IllegalArgumentException when there is no such file, with what to do about it
     */
    static Path find(String named, String launcher, String option) {
        String chosen = named == null || named.isEmpty() ? System.getenv("SHELLGATE_AGENT_JAR") : named;
        Path jar;
        if (chosen != null && !chosen.isEmpty()) {
            jar = Path.of(chosen);
        } else if (launcher != null) {
            jar = Path.of(launcher).resolveSibling("shellgate-agent.jar");
        } else {
            throw new IllegalArgumentException("no agent jar named, and no launcher to look beside (name it: " + option + "=JAR)");
        }
        jar = jar.toAbsolutePath();
        if (!Files.isRegularFile(jar)) {
            throw new IllegalArgumentException("no agent jar at " + jar + " (build it with mvn package, or name it: " + option + "=JAR)");
        }
        return jar;
    }
}
