package io.shellgate.interceptor.internal;

import java.lang.instrument.ClassFileTransformer;
import java.security.ProtectionDomain;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Waits for {@code java.lang.ProcessBuilder}, which every way of starting a process goes through
 * and which a JVM loads only when it is about to start one, and only then brings in the bytecode
 * library. {@code java.lang.ProcessImpl} is not a usable trigger: on Java 25 {@code System.getenv}
 * loads it in nearly every JVM. It is changed when it loads after the trigger, or retransformed by
 * {@link Gate#ready} before the first start. Uses JDK types only.
 */
public final class LazyTransformer implements ClassFileTransformer {

    /** The marker every transformation error is reported with on standard error. */
    public static final String ERROR_MARKER = "shellgate agent: transformation error";

    static final String PROCESS_IMPL = "java/lang/ProcessImpl";
    static final String PROCESS_BUILDER = "java/lang/ProcessBuilder";

    private static final AtomicInteger ERRORS = new AtomicInteger();
    private static volatile boolean armed;
    private static volatile boolean processImplDone;

    /** Whether the class with this internal name is one the agent changes. */
    public static boolean wants(String internalName) {
        return PROCESS_IMPL.equals(internalName) || PROCESS_BUILDER.equals(internalName);
    }

    /** From now on, ProcessImpl is changed whenever it is (re)transformed. */
    public static void arm() {
        armed = true;
    }

    /** Whether ProcessImpl carries the gate. */
    static boolean processImplDone() {
        return processImplDone;
    }

    @Override
    public byte[] transform(Module module, ClassLoader loader, String className, Class<?> redefined,
            ProtectionDomain domain, byte[] bytes) {
        if (loader != null || className == null || !wants(className)) {
            return null;
        }
        if (PROCESS_BUILDER.equals(className)) {
            armed = true;
        } else if (!armed) {
            return null;
        }
        try {
            byte[] changed = Instrumenter.transform(className, bytes);
            if (PROCESS_IMPL.equals(className)) {
                processImplDone = true;
            }
            return changed;
        } catch (Throwable t) {
            report(className, t);
            return null;
        }
    }

    /**
     * Reports a class that could not be changed: processes started through it are not gated, which
     * nobody must miss.
     */
    public static void report(String className, Throwable t) {
        ERRORS.incrementAndGet();
        System.err.println(ERROR_MARKER + ": " + className + " could not be instrumented, so processes it starts"
                + " are NOT gated: " + t);
    }

    /** Reports a file class that could not be changed: writes through it to the gate's files are not refused. */
    static void reportFiles(String className, Throwable t) {
        ERRORS.incrementAndGet();
        System.err.println(ERROR_MARKER + ": " + className + " could not be instrumented, so writes through it to"
                + " shellgate's own files are NOT refused: " + t);
    }

    /** How many transformations failed in this JVM. */
    public static int errors() {
        return ERRORS.get();
    }
}
