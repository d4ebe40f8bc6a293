package io.shellgate.interceptor.internal;

import java.io.File;
import java.lang.reflect.InvocationTargetException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Set;
import net.bytebuddy.asm.Advice;

/**
 * The code put at the start of the JDK's file-writing methods. Like {@link ProcessAdvice} it runs
 * inside {@code java.base} and reaches {@link FileGuard} by name through the system class loader;
 * reads are told apart here, before any call out, so that opening a jar to load that class is
 * never checked itself.
 */
final class FileAdvice {

    private static final String GUARD = "io.shellgate.interceptor.internal.FileGuard";

    private FileAdvice() {}

    /** {@code FileOutputStream.open(String, boolean)}: always a write. */
    static final class OpenStream {

        private OpenStream() {}

        @Advice.OnMethodEnter
        static void enter(@Advice.Argument(0) String name) throws Throwable {
            try {
                Class.forName("io.shellgate.interceptor.internal.FileGuard", true, ClassLoader.getSystemClassLoader())
                        .getMethod("write", String.class).invoke(null, name);
            } catch (InvocationTargetException e) {
                throw e.getCause();
            }
        }
    }

    /** {@code RandomAccessFile.open(String, int)}: a write when the mode has {@code O_RDWR} (2). */
    static final class OpenRandom {

        private OpenRandom() {}

        @Advice.OnMethodEnter
        static void enter(@Advice.Argument(0) String name, @Advice.Argument(1) int mode) throws Throwable {
            if ((mode & 2) != 0) {
                try {
                    Class.forName("io.shellgate.interceptor.internal.FileGuard", true, ClassLoader.getSystemClassLoader())
                            .getMethod("write", String.class).invoke(null, name);
                } catch (InvocationTargetException e) {
                    throw e.getCause();
                }
            }
        }
    }

    /** The NIO provider's channels ({@code Files.newOutputStream}, {@code Files.write}, {@code FileChannel.open}). */
    static final class Channel {

        private Channel() {}

        @Advice.OnMethodEnter
        static void enter(@Advice.Argument(0) Path path, @Advice.Argument(1) Set<?> options) throws Throwable {
            if (options.contains(StandardOpenOption.WRITE) || options.contains(StandardOpenOption.APPEND)
                    || options.contains(StandardOpenOption.DELETE_ON_CLOSE)) {
                try {
                    Class.forName("io.shellgate.interceptor.internal.FileGuard", true, ClassLoader.getSystemClassLoader())
                            .getMethod("writeNio", String.class).invoke(null, String.valueOf(path));
                } catch (InvocationTargetException e) {
                    throw e.getCause();
                }
            }
        }
    }

    /** A provider operation that changes its first path (delete, create a directory or link). */
    static final class FirstPath {

        private FirstPath() {}

        @Advice.OnMethodEnter
        static void enter(@Advice.Argument(0) Path path) throws Throwable {
            try {
                Class.forName("io.shellgate.interceptor.internal.FileGuard", true, ClassLoader.getSystemClassLoader())
                        .getMethod("writeNio", String.class).invoke(null, String.valueOf(path));
            } catch (InvocationTargetException e) {
                throw e.getCause();
            }
        }
    }

    /** {@code move} and {@code copy}: both ends ({@code copy} only writes its target, but a move of a gate file away is a deletion). */
    static final class BothPaths {

        private BothPaths() {}

        @Advice.OnMethodEnter
        static void enter(@Advice.Origin("#m") String method, @Advice.Argument(0) Path source, @Advice.Argument(1) Path target)
                throws Throwable {
            try {
                java.lang.reflect.Method check = Class.forName("io.shellgate.interceptor.internal.FileGuard", true,
                        ClassLoader.getSystemClassLoader()).getMethod("writeNio", String.class);
                if (method.equals("move")) {
                    check.invoke(null, String.valueOf(source));
                }
                check.invoke(null, String.valueOf(target));
            } catch (InvocationTargetException e) {
                throw e.getCause();
            }
        }
    }

    /**
     * {@code File.delete}, {@code mkdir}, {@code createNewFile}: the method is skipped when refused, so
     * that it returns false, the way these methods say that they failed.
     */
    static final class FileSelf {

        private FileSelf() {}

        @Advice.OnMethodEnter(skipOn = Advice.OnNonDefaultValue.class)
        static boolean enter(@Advice.This File self) throws Throwable {
            return (Boolean) Class.forName("io.shellgate.interceptor.internal.FileGuard", true, ClassLoader.getSystemClassLoader())
                    .getMethod("refuses", String.class).invoke(null, self.getPath());
        }
    }

    /** {@code File.renameTo}: both ends; skipped (false) when refused. */
    static final class FileRename {

        private FileRename() {}

        @Advice.OnMethodEnter(skipOn = Advice.OnNonDefaultValue.class)
        static boolean enter(@Advice.This File self, @Advice.Argument(0) File target) throws Throwable {
            java.lang.reflect.Method refuses = Class.forName("io.shellgate.interceptor.internal.FileGuard", true,
                    ClassLoader.getSystemClassLoader()).getMethod("refuses", String.class);
            return (Boolean) refuses.invoke(null, self.getPath())
                    || target != null && (Boolean) refuses.invoke(null, target.getPath());
        }
    }
}
