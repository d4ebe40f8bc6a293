package io.shellgate.it.oracle;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** strace's output, as strace 6 prints it with -y, taken apart. */
class TraceLineTest {

    @Test
    void readsAnOpenWithTheFileItsDescriptorNames() {
        TraceLine t = TraceLine.parse("openat(AT_FDCWD</home/u/proj>, \"id_rsa\", O_RDONLY) = 3</home/u/proj/id_rsa>");
        assertThat(t).isEqualTo(new TraceLine("openat", List.of("AT_FDCWD</home/u/proj>", "\"id_rsa\"", "O_RDONLY"), "3",
                "/home/u/proj/id_rsa", null));
        assertThat(t.ok()).isTrue();
    }

    @Test
    void readsAFailedCallWithItsError() {
        TraceLine t = TraceLine.parse("openat(AT_FDCWD</x>, \"/dev/tty\", O_RDWR|O_NONBLOCK) = -1 ENXIO (No such device or address)");
        assertThat(t.errno()).isEqualTo("ENXIO");
        assertThat(t.ok()).isFalse();
    }

    @Test
    void keepsCommasAndParenthesesInsideStringsAndStructures() {
        TraceLine t = TraceLine.parse("execve(\"/usr/bin/bash\", [\"bash\", \"-c\", \"a, (b) = 1\"], 0x7ffd /* 3 vars */) = 0");
        assertThat(t.args()).hasSize(3);
        assertThat(TraceLine.unquote(t.arg(0))).isEqualTo("/usr/bin/bash");
        assertThat(t.arg(1)).isEqualTo("[\"bash\", \"-c\", \"a, (b) = 1\"]");
    }

    @Test
    void decodesStraceEscapes() {
        assertThat(TraceLine.unquote("\"a\\nb\\\"c\\303\\251\"")).isEqualTo("a\nb\"cé");
        assertThat(TraceLine.unquote("\"x\\ty\"...")).isEqualTo("x\ty");
    }

    @Test
    void readsTheEndOfAProcessAndIgnoresSignals() {
        assertThat(TraceLine.parse("+++ exited with 0 +++").isEnd()).isTrue();
        assertThat(TraceLine.parse("--- SIGCHLD {si_signo=SIGCHLD} ---")).isNull();
    }

    @Test
    void namesTheSocketADescriptorIs() {
        TraceLine t = TraceLine.parse("connect(3<socket:[18330]>, {sa_family=AF_UNIX, sun_path=\"/var/run/nscd/socket\"}, 110)"
                + " = -1 ENOENT (No such file or directory)");
        assertThat(TraceLine.fdPath(t.arg(0))).isEqualTo("socket:[18330]");
    }
}
