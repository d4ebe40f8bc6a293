package io.shellgate.interceptor.internal;

import java.lang.reflect.InvocationTargetException;
import java.util.List;
import java.util.Map;
import net.bytebuddy.asm.Advice;

/**
 * The code put at the start of the JDK's process-starting methods. It runs inside
 * {@code java.base}, which cannot see this agent's classes, so each body looks the gate up by
 * name in the system class loader (where {@code -javaagent} puts the agent jar) and calls it
 * reflectively (the class's method cache makes that cheaper than a method handle looked up each
 * time); the gate's refusal is thrown on unwrapped. A gate that cannot be found fails the start.
 */
final class ProcessAdvice {

    private ProcessAdvice() {}

    /** At the start of {@code ProcessImpl.start(String[], Map, String, Redirect[], boolean)}. */
    static final class Start {

        private Start() {}

        @Advice.OnMethodEnter
        static void enter(@Advice.Argument(0) String[] argv, @Advice.Argument(1) Map<String, String> env,
                @Advice.Argument(2) String dir, @Advice.Argument(3) ProcessBuilder.Redirect[] redirects) throws Throwable {
            try {
                Class.forName("io.shellgate.interceptor.internal.Gate", true, ClassLoader.getSystemClassLoader())
                        .getMethod("start", String[].class, Map.class, String.class, ProcessBuilder.Redirect[].class)
                        .invoke(null, argv, env, dir, redirects);
            } catch (InvocationTargetException e) {
                throw e.getCause();
            }
        }
    }

    /** At the start of {@code ProcessBuilder.start(Redirect[])}, which every start goes through. */
    static final class Ready {

        private Ready() {}

        @Advice.OnMethodEnter
        static void enter() throws Throwable {
            try {
                Class.forName("io.shellgate.interceptor.internal.Gate", true, ClassLoader.getSystemClassLoader())
                        .getMethod("ready").invoke(null);
            } catch (InvocationTargetException e) {
                throw e.getCause();
            }
        }
    }

    /** At the start of {@code ProcessBuilder.startPipeline(List)}. */
    static final class Pipeline {

        private Pipeline() {}

        @Advice.OnMethodEnter
        static void enter(@Advice.Argument(0) List<ProcessBuilder> builders) throws Throwable {
            try {
                Class.forName("io.shellgate.interceptor.internal.Gate", true, ClassLoader.getSystemClassLoader())
                        .getMethod("startPipeline", List.class).invoke(null, builders);
            } catch (InvocationTargetException e) {
                throw e.getCause();
            }
        }
    }
}
