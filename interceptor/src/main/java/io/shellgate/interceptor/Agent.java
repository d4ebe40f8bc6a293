package io.shellgate.interceptor;

import io.shellgate.interceptor.internal.AgentOptions;
import io.shellgate.interceptor.internal.FileTransformer;
import io.shellgate.interceptor.internal.Gate;
import io.shellgate.interceptor.internal.LazyTransformer;
import java.io.IOException;
import java.lang.instrument.Instrumentation;
import java.lang.instrument.UnmodifiableClassException;

/**
 * The javaagent's entry point ({@code -javaagent:shellgate-agent.jar[=OPTIONS]}, or attached to a
 * running JVM). It registers a transformer that waits for the JDK's process classes (the judge is
 * loaded when the JVM starts its first process) and changes the JDK's file classes at once, so
 * that no code of the JVM writes shellgate's own files.
 */
public final class Agent {

    /**
     * The system property an installed agent sets, to {@code mode=enforce} or {@code mode=audit}:
     * how {@code shellgate attach} tells a JVM that carries the agent already.
     */
    public static final String PROPERTY = "shellgate.agent";
    /** The lowest Java the agent runs in. */
    public static final int MIN_JAVA = 17;

    private static boolean installed;

    private Agent() {}

    /**
     * What is wrong with attaching the agent with {@code arguments} to a JVM of Java
     * {@code javaFeature}, or null: what {@code shellgate attach} asks before it attaches, with the
     * agent jar it is about to load, so that the reason reaches the user instead of the other
     * JVM's standard error.
     */
    public static String attachProblem(String arguments, int javaFeature) {
        if (javaFeature < MIN_JAVA) {
            return "the JVM runs Java " + javaFeature + "; the agent needs Java " + MIN_JAVA + " or newer";
        }
        AgentOptions options;
        try {
            options = AgentOptions.parse(arguments, null);
        } catch (IllegalArgumentException e) {
            return e.getMessage();
        }
        if (options.help()) {
            return "help prints the options and stops the JVM, which an attached agent must not do;"
                    + " see java -javaagent:shellgate-agent.jar=help -version";
        }
        if (options.judge().equals("in-process") && javaFeature < AgentOptions.IN_PROCESS_JAVA) {
            return "judge=in-process needs Java " + AgentOptions.IN_PROCESS_JAVA + " or newer, and the JVM runs Java "
                    + javaFeature + " (judge=auto uses the judge server there)";
        }
        return null;
    }

    /** Called by the JVM before {@code main} for {@code -javaagent}. */
    public static void premain(String arguments, Instrumentation instrumentation) {
        install(arguments, instrumentation, false);
    }

    /** Called by the JVM when the agent is attached to a running JVM. */
    public static void agentmain(String arguments, Instrumentation instrumentation) {
        install(arguments, instrumentation, true);
    }

    /** The value of {@link #PROPERTY} for a mode. */
    private static String mode(boolean audit) {
        return audit ? "mode=audit" : "mode=enforce";
    }

    private static synchronized void install(String arguments, Instrumentation instrumentation, boolean attached) {
        AgentOptions options;
        try {
            options = AgentOptions.parse(arguments, System.getenv(AgentOptions.ENV));
        } catch (IllegalArgumentException e) {
            // the JVM stops when an agent fails to start: better than running ungated
            System.err.println("shellgate agent: " + e.getMessage());
            throw e;
        }
        if (options.help()) {
            System.err.print(AgentOptions.helpText());
            if (attached) {
                // stopping a running JVM because someone asked for help would be a poor answer
                throw new IllegalArgumentException("help is for -javaagent, not for an agent attached to a running JVM");
            }
            System.exit(0);
        }
        if (installed) {
            // the JVM loads this class once, from the first copy of the jar: a second agent (given
            // twice, or attached to a JVM that has it) would only judge every process twice. The
            // first one's options stay, except that a second may turn audit mode into enforcing:
            // an agent that comes first (JAVA_TOOL_OPTIONS does) must not turn the other's off
            String was = System.getProperty(PROPERTY);
            if (!options.audit() && Gate.enforce()) {
                System.setProperty(PROPERTY, mode(false));
                System.err.println("shellgate agent: already installed in this JVM (" + was + "); the second one turns it"
                        + " to mode=enforce, and its other options are ignored");
            } else {
                System.err.println("shellgate agent: already installed in this JVM (" + was + "); the second one does nothing");
            }
            return;
        }
        Gate.configure(options, instrumentation, new Refused());
        installed = true;
        System.setProperty(PROPERTY, mode(options.audit()));
        instrumentation.addTransformer(new LazyTransformer(), true);
        // the file classes are loaded already: the guard on the gate's own files goes in now
        FileTransformer.install(instrumentation);
        // a ProcessBuilder loaded before the agent (attached to a running JVM, or a tool that
        // used it in its own premain) is changed now; ProcessImpl follows at the first start
        for (Class<?> c : instrumentation.getAllLoadedClasses()) {
            if (c.getName().equals("java.lang.ProcessBuilder") && c.getClassLoader() == null) {
                LazyTransformer.arm();
                try {
                    instrumentation.retransformClasses(c);
                } catch (UnmodifiableClassException | RuntimeException e) {
                    LazyTransformer.report(c.getName(), e);
                }
            }
        }
    }

    /** What a refused start throws in the host application: the public exception, which the gate does not name. */
    private static final class Refused implements Gate.Refusal {
        @Override
        public IOException refused(String rule, String tier, String reason) {
            return new ShellgateRefusedException(rule, tier, reason);
        }
    }
}
