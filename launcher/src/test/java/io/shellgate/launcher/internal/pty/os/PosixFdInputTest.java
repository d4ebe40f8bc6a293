package io.shellgate.launcher.internal.pty.os;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Reads through read(2) on a real pipe: every byte in order, the end, and the caller's descriptor its own. */
@Timeout(60)
class PosixFdInputTest {

    private static final Linker LINKER = Linker.nativeLinker();
    private static final MethodHandle PIPE = handle("pipe", FunctionDescriptor.of(JAVA_INT, ADDRESS));
    private static final MethodHandle WRITE = handle("write", FunctionDescriptor.of(JAVA_LONG, JAVA_INT, ADDRESS, JAVA_LONG));
    private static final MethodHandle CLOSE = handle("close", FunctionDescriptor.of(JAVA_INT, JAVA_INT));

    private static MethodHandle handle(String name, FunctionDescriptor d) {
        return LINKER.downcallHandle(LINKER.defaultLookup().find(name).orElseThrow(), d);
    }

    private static int[] pipe() throws Throwable {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment fds = a.allocate(JAVA_INT, 2);
            assertThat((int) PIPE.invokeExact(fds)).isZero();
            return new int[] {fds.getAtIndex(JAVA_INT, 0), fds.getAtIndex(JAVA_INT, 1)};
        }
    }

    private static void write(int fd, byte[] bytes) throws Throwable {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment buf = a.allocateFrom(java.lang.foreign.ValueLayout.JAVA_BYTE, bytes);
            long done = 0;
            while (done < bytes.length) {
                long n = (long) WRITE.invokeExact(fd, buf.asSlice(done), (long) bytes.length - done);
                assertThat(n).isPositive();
                done += n;
            }
        }
    }

    @Test
    void readsEveryByteInOrderUntilTheOtherSideCloses() throws Throwable {
        int[] fds = pipe();
        PosixFdInput in = PosixFdInput.dup(fds[0]);
        assertThat(in).as("native access is enabled for the tests").isNotNull();
        assertThat((int) CLOSE.invokeExact(fds[0])).as("the stream reads its own copy").isZero();
        byte[] all = new byte[3 * 1024 * 1024 + 17];
        new Random(7).nextBytes(all);
        Thread writer = Thread.ofPlatform().start(() -> {
            try {
                write(fds[1], all);
                int ignored = (int) CLOSE.invokeExact(fds[1]);
            } catch (Throwable t) {
                throw new IllegalStateException(t);
            }
        });
        ByteArrayOutputStream got = new ByteArrayOutputStream();
        byte[] buf = new byte[5000];
        int n;
        while ((n = in.read(buf, 3, 4000)) >= 0) {
            got.write(buf, 3, n);
        }
        writer.join();
        assertThat(got.toByteArray()).isEqualTo(all);
        in.close();
        assertThat(in.read(buf)).isEqualTo(-1);
    }
}
