package io.shellgate.interceptor.internal;

import java.lang.instrument.ClassFileTransformer;
import java.lang.instrument.Instrumentation;
import java.security.ProtectionDomain;

/**
 * Puts the file guard into the JDK's file classes, which every JVM has loaded before an agent
 * starts: they are retransformed when the agent is installed.
 */
public final class FileTransformer implements ClassFileTransformer {

    private FileTransformer() {}

    /** Registers the transformer and changes the file classes now; a failure is reported, never silent. */
    public static void install(Instrumentation instrumentation) {
        instrumentation.addTransformer(new FileTransformer(), true);
        for (String internal : FileInstrumenter.CLASSES) {
            try {
                instrumentation.retransformClasses(Class.forName(internal.replace('/', '.'), false, null));
            } catch (Exception | LinkageError e) {
                LazyTransformer.reportFiles(internal.replace('/', '.'), e);
            }
        }
    }

    @Override
    public byte[] transform(Module module, ClassLoader loader, String className, Class<?> redefined,
            ProtectionDomain domain, byte[] bytes) {
        if (loader != null || className == null || !FileInstrumenter.CLASSES.contains(className)) {
            return null;
        }
        try {
            return FileInstrumenter.transform(className, bytes);
        } catch (Throwable t) {
            LazyTransformer.reportFiles(className.replace('/', '.'), t);
            return null;
        }
    }
}
