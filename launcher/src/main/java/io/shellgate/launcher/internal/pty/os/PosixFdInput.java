package io.shellgate.launcher.internal.pty.os;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static java.lang.foreign.ValueLayout.JAVA_SHORT;

import java.io.IOException;
import java.io.InputStream;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.StructLayout;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.VarHandle;
import java.util.Objects;

/**
 * What a pseudo-terminal's master side reads, with {@code read(2)} called through the FFM API into
 * one native buffer kept for the stream's life. pty4j's own stream allocates an array, polls and
 * reads through JNA (copying the array to native memory and back) on every read, and a terminal
 * read returns at most a few kilobytes: at a full terminal's speed that overhead is most of the
 * proxy's cost. The stream reads a {@code dup} of the descriptor, so pty4j closing its own (when
 * the shell exits) cannot hand this stream's number to another file while a read is under way;
 * end of input is the end of the terminal ({@code EIO} once no process holds its other side).
 */
final class PosixFdInput extends InputStream {

    private static final int EINTR = 4;
    private static final int EIO = 5;
    /** 11 on Linux, 35 on macOS and the BSDs (where 11 is EDEADLK). */
    private static final int EAGAIN = System.getProperty("os.name", "").startsWith("Linux") ? 11 : 35;
    private static final short POLLIN = 1;
    private static final int BUFFER = 64 * 1024;

    private static final Native NATIVE = Native.load();

    private final Arena arena = Arena.ofShared();
    private final MemorySegment buffer = arena.allocate(BUFFER);
    private final MemorySegment errno = arena.allocate(Native.CAPTURE);
    private final MemorySegment pollfd = arena.allocate(8);
    private final Object lock = new Object();
    private int fd;
    private boolean reading;
    private boolean closed;

    private PosixFdInput(int fd) {
        this.fd = fd;
    }

    /** A stream on a copy of {@code fd}, or null when native calls are not available in this JVM. */
    static PosixFdInput dup(int fd) {
        if (NATIVE == null || fd < 0) {
            return null;
        }
        try (Arena a = Arena.ofConfined()) {
            MemorySegment e = a.allocate(Native.CAPTURE);
            int copy = (int) NATIVE.dup.invokeExact(e, fd);
            return copy < 0 ? null : new PosixFdInput(copy);
        } catch (Throwable t) {
            return null;
        }
    }

    @Override
    public int read() throws IOException {
        byte[] one = new byte[1];
        int n = read(one, 0, 1);
        return n < 0 ? -1 : one[0] & 0xff;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
        Objects.checkFromIndexSize(off, len, b.length);
        if (len == 0) {
            return 0;
        }
        int at;
        synchronized (lock) {
            if (closed) {
                return -1;
            }
            reading = true;
            at = fd;
        }
        try {
            long n = readNative(at, Math.min(len, BUFFER));
            if (n <= 0) {
                return -1;
            }
            MemorySegment.copy(buffer, JAVA_BYTE, 0, b, off, (int) n);
            return (int) n;
        } finally {
            synchronized (lock) {
                reading = false;
                if (closed) {
                    release();
                }
            }
        }
    }

    /** Bytes read into {@link #buffer}, 0 at the end of the terminal. */
    private long readNative(int at, int len) throws IOException {
        try {
            while (true) {
                long n = (long) NATIVE.read.invokeExact(errno, at, buffer, (long) len);
                if (n >= 0) {
                    return n;
                }
                int e = (int) Native.ERRNO.get(errno, 0L);
                if (e == EIO) {
                    // Linux: every process with the other side open has closed it
                    return 0;
                }
                if (e == EAGAIN) {
                    // a descriptor in non-blocking mode: wait until there is something to read
                    int r = (int) NATIVE.poll.invokeExact(errno, pollIn(pollfd, at), 1L, -1);
                    if (r < 0 && (int) Native.ERRNO.get(errno, 0L) != EINTR) {
                        throw new IOException("poll on the pseudo-terminal failed (errno " + Native.ERRNO.get(errno, 0L) + ")");
                    }
                } else if (e != EINTR) {
                    throw new IOException("read from the pseudo-terminal failed (errno " + e + ")");
                }
            }
        } catch (IOException | RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new IOException("read from the pseudo-terminal failed", t);
        }
    }

    /** {@code p}, a {@code struct pollfd}, filled in to wait until {@code fd} can be read. */
    private static MemorySegment pollIn(MemorySegment p, int fd) {
        p.set(JAVA_INT, 0, fd);
        p.set(JAVA_SHORT, 4, POLLIN);
        p.set(JAVA_SHORT, 6, (short) 0);
        return p;
    }

    /** 1 when a read would return at once, else 0. */
    @Override
    public int available() {
        synchronized (lock) {
            if (closed || fd < 0) {
                return 0;
            }
            try (Arena a = Arena.ofConfined()) {
                MemorySegment p = pollIn(a.allocate(8), fd);
                int r = (int) NATIVE.poll.invokeExact(a.allocate(Native.CAPTURE), p, 1L, 0);
                return r > 0 && (p.get(JAVA_SHORT, 6) & POLLIN) != 0 ? 1 : 0;
            } catch (Throwable t) {
                return 0;
            }
        }
    }

    /** The terminal's foreground process group, or -1 when it cannot be told. */
    int foregroundGroup() {
        synchronized (lock) {
            if (closed || fd < 0) {
                return -1;
            }
            try (Arena a = Arena.ofConfined()) {
                return (int) NATIVE.tcgetpgrp.invokeExact(a.allocate(Native.CAPTURE), fd);
            } catch (Throwable t) {
                return -1;
            }
        }
    }

    @Override
    public void close() {
        synchronized (lock) {
            if (closed) {
                return;
            }
            closed = true;
            if (!reading) {
                release();
            }
        }
    }

    /** Closes the descriptor and frees the buffer; only when no read is under way. */
    private void release() {
        if (fd < 0) {
            return;
        }
        try {
            int ignored = (int) NATIVE.close.invokeExact(errno, fd);
        } catch (Throwable t) {
            // nothing more to do with it
        }
        fd = -1;
        arena.close();
    }

    /** The C library's functions, or nothing when this JVM does not allow native calls from here. */
    private record Native(MethodHandle read, MethodHandle poll, MethodHandle dup, MethodHandle close, MethodHandle tcgetpgrp) {

        static final StructLayout CAPTURE = Linker.Option.captureStateLayout();
        static final VarHandle ERRNO = CAPTURE.varHandle(MemoryLayout.PathElement.groupElement("errno"));

        static Native load() {
            // without --enable-native-access the JVM would print a warning on the person's terminal
            if (!PosixFdInput.class.getModule().isNativeAccessEnabled() || ADDRESS.byteSize() != 8) {
                return null;
            }
            try {
                Linker linker = Linker.nativeLinker();
                Linker.Option errno = Linker.Option.captureCallState("errno");
                var libc = linker.defaultLookup();
                return new Native(
                        linker.downcallHandle(libc.find("read").orElseThrow(),
                                FunctionDescriptor.of(JAVA_LONG, JAVA_INT, ADDRESS, JAVA_LONG), errno),
                        linker.downcallHandle(libc.find("poll").orElseThrow(),
                                FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_LONG, JAVA_INT), errno),
                        linker.downcallHandle(libc.find("dup").orElseThrow(), FunctionDescriptor.of(JAVA_INT, JAVA_INT), errno),
                        linker.downcallHandle(libc.find("close").orElseThrow(), FunctionDescriptor.of(JAVA_INT, JAVA_INT), errno),
                        linker.downcallHandle(libc.find("tcgetpgrp").orElseThrow(), FunctionDescriptor.of(JAVA_INT, JAVA_INT), errno));
            } catch (RuntimeException | LinkageError e) {
                return null;
            }
        }
    }
}
