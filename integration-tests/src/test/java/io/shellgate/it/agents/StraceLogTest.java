package io.shellgate.it.agents;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Reading strace's output: lines as strace 6 prints them on this machine. */
class StraceLogTest {

    @TempDir
    Path dir;

    @Test
    void readsExecsWithEscapedArgumentsAndTheirEnvironmentInTimeOrder() throws Exception {
        Files.writeString(dir.resolve("execve.200"), """
                1796137091.900000 execve("/usr/bin/ls", ["ls", "-la"], ["PATH=/usr/bin:/bin"]) = 0
                """);
        Files.writeString(dir.resolve("execve.100"), """
                1796137091.100000 execve("/usr/local/bin/bash", ["bash", "-c", "x"], []) = -1 ENOENT (No such file or directory)
                1796137091.200000 execve("/bin/bash", ["/bin/bash", "-c", "echo \\"a\\\\b\\"\\n\\tc\\33[0m \\303\\251"], ["A=1", "B=x=y"]) = 0
                """);
        List<Exec> execs = StraceLog.read(dir.resolve("execve"));
        assertThat(execs).extracting(Exec::pid, Exec::path).containsExactly(
                org.assertj.core.groups.Tuple.tuple(100, "/bin/bash"), org.assertj.core.groups.Tuple.tuple(200, "/usr/bin/ls"));
        assertThat(execs.getFirst().argv()).containsExactly("/bin/bash", "-c", "echo \"a\\b\"\n\tc\u001b[0m é");
        assertThat(execs.getFirst().env()).isEqualTo(Map.of("A", "1", "B", "x=y"));
        assertThat(execs.getFirst().isShell()).isTrue();
        assertThat(execs.get(1).isShell()).isFalse();
    }

    @Test
    void readsTheIpAddressesConnectedToAndLeavesUnixSocketsOut() throws Exception {
        Files.writeString(dir.resolve("execve.7"), """
                1796137091.1 connect(3, {sa_family=AF_UNIX, sun_path="/run/x.sock"}, 110) = 0
                1796137091.2 connect(5, {sa_family=AF_INET, sin_port=htons(443), sin_addr=inet_addr("140.82.112.3")}, 16) = -1 EINPROGRESS (Operation now in progress)
                1796137091.3 connect(6, {sa_family=AF_INET6, sin6_port=htons(80), sin6_flowinfo=htonl(0), inet_pton(AF_INET6, "::1", &sin6_addr), sin6_scope_id=0}, 28) = 0
                """);
        assertThat(StraceLog.connections(dir.resolve("execve"))).containsExactly("140.82.112.3:443", "::1:80");
    }
}
