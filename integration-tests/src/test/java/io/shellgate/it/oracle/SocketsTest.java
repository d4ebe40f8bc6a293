package io.shellgate.it.oracle;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Which sockets are findings, from strace lines as strace 6 prints them with -y. */
class SocketsTest {

    private static List<Finding> findings(String... trace) {
        List<Finding> out = new ArrayList<>();
        Sockets sockets = new Sockets(out);
        for (String line : trace) {
            sockets.call(TraceLine.parse(line));
        }
        sockets.finish();
        return out;
    }

    @Test
    void theNameServiceAndTheSystemLogAreNoFinding() {
        assertThat(findings("socket(AF_UNIX, SOCK_STREAM|SOCK_CLOEXEC|SOCK_NONBLOCK, 0) = 3<socket:[18330]>",
                "connect(3<socket:[18330]>, {sa_family=AF_UNIX, sun_path=\"/var/run/nscd/socket\"}, 110) = -1 ENOENT (No such file)",
                "socket(AF_UNIX, SOCK_DGRAM|SOCK_CLOEXEC, 0) = 4<socket:[18331]>",
                "connect(4<socket:[18331]>, {sa_family=AF_UNIX, sun_path=\"/dev/log\"}, 110) = 0")).isEmpty();
    }

    @Test
    void aLocalServiceIsAFindingEvenWhenItIsNotThere() {
        assertThat(findings("socket(AF_UNIX, SOCK_STREAM|SOCK_CLOEXEC, 0) = 3<socket:[7]>",
                "connect(3<socket:[7]>, {sa_family=AF_UNIX, sun_path=\"/var/run/docker.sock\"}, 23) = -1 ENOENT (No such file)"))
                .containsExactly(new Finding(Finding.Kind.NETWORK, "connect /var/run/docker.sock"));
    }

    @Test
    void aNameServerQueryIsAFinding() {
        assertThat(findings("socket(AF_INET, SOCK_DGRAM|SOCK_CLOEXEC|SOCK_NONBLOCK, IPPROTO_IP) = 3<socket:[9]>",
                "connect(3<socket:[9]>, {sa_family=AF_INET, sin_port=htons(53), sin_addr=inet_addr(\"10.0.0.53\")}, 16)"
                        + " = -1 ENETUNREACH (Network is unreachable)"))
                .singleElement().satisfies(f -> assertThat(f.kind()).isEqualTo(Finding.Kind.NETWORK));
    }

    @Test
    void aLoopbackProbeAndAnUnusedSocketAreNoFinding() {
        assertThat(findings("socket(AF_INET6, SOCK_STREAM|SOCK_CLOEXEC, IPPROTO_IP) = 3<socket:[11]>",
                "bind(3<socket:[11]>, {sa_family=AF_INET6, sin6_port=htons(0), sin6_flowinfo=htonl(0),"
                        + " inet_pton(AF_INET6, \"::1\", &sin6_addr), sin6_scope_id=0}, 28) = 0",
                "socket(AF_INET, SOCK_DGRAM, IPPROTO_IP) = 4<socket:[12]>",
                "ioctl(4<socket:[12]>, SIOCGIFCONF, {ifc_len=0, ifc_buf=NULL}) = 0")).isEmpty();
    }

    @Test
    void settingAnInterfaceThroughASocketChangesTheSystem() {
        assertThat(findings("socket(AF_INET, SOCK_DGRAM, IPPROTO_IP) = 4<socket:[12]>",
                "ioctl(4<socket:[12]>, SIOCSIFFLAGS, {ifr_name=\"lo\", ifr_flags=IFF_BROADCAST}) = -1 EPERM (Operation not permitted)"))
                .singleElement().satisfies(f -> assertThat(f.kind()).isEqualTo(Finding.Kind.SYSTEM));
    }

    @Test
    void netlinkQueriesAreNoFindingButChangesAre() {
        String socket = "socket(AF_NETLINK, SOCK_RAW|SOCK_CLOEXEC, NETLINK_ROUTE) = 3<socket:[20]>";
        assertThat(findings(socket, "sendto(3<socket:[20]>, [{nlmsg_len=40, nlmsg_type=RTM_GETLINK,"
                + " nlmsg_flags=NLM_F_REQUEST|NLM_F_DUMP, nlmsg_seq=1, nlmsg_pid=0}, {ifi_family=AF_UNSPEC}], 40, 0, NULL, 0) = 40"))
                .isEmpty();
        assertThat(findings(socket, "sendto(3<socket:[20]>, [{nlmsg_len=32, nlmsg_type=RTM_NEWLINK,"
                + " nlmsg_flags=NLM_F_REQUEST|NLM_F_ACK, nlmsg_seq=1, nlmsg_pid=0}, {ifi_family=AF_UNSPEC}], 32, 0, NULL, 0) = 32"))
                .containsExactly(new Finding(Finding.Kind.SYSTEM, "sendto netlink RTM_NEWLINK"));
    }
}
