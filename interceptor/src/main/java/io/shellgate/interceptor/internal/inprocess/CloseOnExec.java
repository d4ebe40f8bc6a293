package io.shellgate.interceptor.internal.inprocess;

import java.io.IOException;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.Predicate;

/**
 * Marks files the agent keeps open in the host JVM close-on-exec. The JDK's spawn helper closes
 * every descriptor a child would otherwise inherit, one call each, so every open file makes every
 * process start slower (about 2.5 µs a file, measured); one marked close-on-exec is closed by the
 * kernel at exec instead, at no measurable cost. No child of the JDK ever inherits these files
 * either way. Linux only, and best effort: a file left unmarked costs that time, nothing else.
 */
final class CloseOnExec {

    private static final int F_GETFD = 1;
    private static final int F_SETFD = 2;
    private static final int FD_CLOEXEC = 1;
    private static final Path FDS = Path.of("/proc/self/fd");

    private CloseOnExec() {}

    private static MethodHandle fcntl() {
        Linker linker = Linker.nativeLinker();
        return linker.defaultLookup().find("fcntl").map(f -> linker.downcallHandle(f,
                FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.JAVA_INT, ValueLayout.JAVA_INT, ValueLayout.JAVA_INT),
                Linker.Option.firstVariadicArg(2))).orElse(null);
    }

    /** Marks every open file whose path {@code ours} accepts; how many it marked. */
    static int mark(Predicate<String> ours) {
        if (!System.getProperty("os.name", "").equals("Linux") || !Files.isDirectory(FDS)) {
            return 0;
        }
        int marked = 0;
        try (DirectoryStream<Path> fds = Files.newDirectoryStream(FDS)) {
            MethodHandle fcntl = fcntl();
            if (fcntl == null) {
                return 0;
            }
            for (Path link : fds) {
                int fd;
                String file;
                try {
                    fd = Integer.parseInt(link.getFileName().toString());
                    file = Files.readSymbolicLink(link).toString();
                } catch (NumberFormatException | IOException e) {
                    continue;
                }
                if (fd > 2 && ours.test(file)) {
                    int flags = (int) fcntl.invokeExact(fd, F_GETFD, 0);
                    if (flags >= 0 && (flags & FD_CLOEXEC) == 0 && (int) fcntl.invokeExact(fd, F_SETFD, flags | FD_CLOEXEC) == 0) {
                        marked++;
                    }
                }
            }
        } catch (Throwable t) {
            // only time is lost
        }
        return marked;
    }
}
