package io.shellgate.interceptor.internal;

import java.lang.instrument.ClassFileTransformer;
import java.security.ProtectionDomain;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Waits for the JDK's process classes and only then brings in the bytecode library, so that a JVM
 * which never starts a process never loads it. Uses JDK types only.
 */
public final class LazyTransformer implements ClassFileTransformer {

    /** The marker every transformation error is reported with on standard error. */
    public static final String ERROR_MARKER = "shellgate agent: transformation error";

    private static final AtomicInteger ERRORS = new AtomicInteger();

    /** Whether the class with this internal name is one the agent changes. */
    public static boolean wants(String internalName) {
        return "java/lang/ProcessImpl".equals(internalName) || "java/lang/ProcessBuilder".equals(internalName);
    }

    @Override
    public byte[] transform(Module module, ClassLoader loader, String className, Class<?> redefined,
            ProtectionDomain domain, byte[] bytes) {
        if (loader != null || className == null || !wants(className)) {
            return null;
        }
        try {
            return Instrumenter.transform(className, bytes);
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

    /** How many transformations failed in this JVM. */
    public static int errors() {
        return ERRORS.get();
    }
}
