package io.shellgate.interceptor.internal;

import java.lang.instrument.ClassFileTransformer;
import java.lang.instrument.Instrumentation;
import java.security.ProtectionDomain;
import java.util.Set;

/**
 * Puts the file guard into the JDK's file classes, which every JVM has loaded before an agent
 * starts: they are retransformed when the agent is installed.
 */
public final class FileTransformer implements ClassFileTransformer {

    /**
     * The internal names of the classes changed. Held here, not in {@link FileInstrumenter}: a class
     * the JVM loads while the transformer is registered reaches {@link #transform}, and loading
     * FileInstrumenter from there would be a class circularity (seen on attach to Java 17).
     */
    static final Set<String> CLASSES = Set.of("java/io/FileOutputStream", "java/io/RandomAccessFile", "java/io/File",
            "sun/nio/fs/UnixFileSystemProvider");

    private FileTransformer() {}

    /** Registers the transformer and changes the file classes now; a failure is reported, never silent. */
    public static void install(Instrumentation instrumentation) {
        instrumentation.addTransformer(new FileTransformer(), true);
        for (String internal : CLASSES) {
            try {
                instrumentation.retransformClasses(Class.forName(internal.replace('/', '.'), false, null));
            } catch (Throwable e) {
                // never a reason for the agent not to start (the process gate matters more): said, and counted
                LazyTransformer.reportFiles(internal.replace('/', '.'), e);
            }
        }
    }

    @Override
    public byte[] transform(Module module, ClassLoader loader, String className, Class<?> redefined,
            ProtectionDomain domain, byte[] bytes) {
        if (loader != null || className == null || !CLASSES.contains(className)) {
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
