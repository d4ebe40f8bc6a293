package io.shellgate.interceptor;

import io.shellgate.interceptor.internal.AgentOptions;
import io.shellgate.interceptor.internal.Gate;
import io.shellgate.interceptor.internal.LazyTransformer;
import java.lang.instrument.Instrumentation;
import java.lang.instrument.UnmodifiableClassException;

/**
 * The javaagent's entry point ({@code -javaagent:shellgate-agent.jar[=OPTIONS]}, or attached to a
 * running JVM). It only registers a transformer that waits for the JDK's process classes; the
 * judge and the bytecode library are loaded when the JVM starts its first process, so a JVM that
 * never starts one pays almost nothing.
 */
public final class Agent {

    private Agent() {}

    /** Called by the JVM before {@code main} for {@code -javaagent}. */
    public static void premain(String arguments, Instrumentation instrumentation) {
        install(arguments, instrumentation);
    }

    /** Called by the JVM when the agent is attached to a running JVM. */
    public static void agentmain(String arguments, Instrumentation instrumentation) {
        install(arguments, instrumentation);
    }

    private static void install(String arguments, Instrumentation instrumentation) {
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
            System.exit(0);
        }
        Gate.configure(options, instrumentation);
        LazyTransformer transformer = new LazyTransformer();
        instrumentation.addTransformer(transformer, true);
        // classes loaded before the agent (always so when attached) are transformed again now
        for (Class<?> c : instrumentation.getAllLoadedClasses()) {
            if (LazyTransformer.wants(c.getName().replace('.', '/')) && c.getClassLoader() == null) {
                try {
                    instrumentation.retransformClasses(c);
                } catch (UnmodifiableClassException | RuntimeException e) {
                    LazyTransformer.report(c.getName(), e);
                }
            }
        }
    }
}
