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
        instrumentation.addTransformer(new LazyTransformer(), true);
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
}
