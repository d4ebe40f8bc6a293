package io.shellgate.it.oracle;

import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Follows the sockets of one line through its trace (by the socket's inode, which strace prints for
 * every descriptor) and says which of them reached, or could reach, anything.
 *
 * <p>A network socket is a finding when it connects, sends, listens or binds to anything but a
 * loopback address with port 0 (Python's check for IPv6 support binds {@code ::1} and nothing else);
 * one that does none of these reaches nothing ({@code netstat -i} asks the kernel about interfaces
 * through one), unless it is a raw or packet socket, which can read what passes by. An ioctl that
 * sets something through a socket ({@code SIOCSIFFLAGS}: {@code ifconfig lo down}) changes the
 * system. A local (AF_UNIX) socket is a finding when it connects, sends or binds to anything but
 * the name service or the system log (see {@link Tolerated#socket}). A netlink socket is a finding
 * when it sends a message that is not a query ({@link Tolerated#netlinkChange}).
 */
final class Sockets {

    private final Set<String> netlink = new HashSet<>();
    /** Network sockets, by inode, to what they did. */
    private final Map<String, String> network = new LinkedHashMap<>();
    /** The network sockets that did more than a loopback probe. */
    private final Set<String> used = new HashSet<>();
    private final List<Finding> findings;

    Sockets(List<Finding> findings) {
        this.findings = findings;
    }

    void call(TraceLine t) {
        if (t.name().equals("socket")) {
            if (t.ok()) {
                String fd = t.resultPath() == null ? "" : t.resultPath();
                switch (t.arg(0)) {
                    case "AF_UNIX" -> { } // judged by where it connects (below)
                    case "AF_NETLINK" -> netlink.add(fd);
                    default -> {
                        network.put(fd, "socket(" + t.arg(0) + ", " + t.arg(1) + ")");
                        if (t.arg(0).equals("AF_PACKET") || t.arg(1).contains("SOCK_RAW")) {
                            used.add(fd);
                        }
                    }
                }
            }
            return;
        }
        String fd = TraceLine.fdPath(t.arg(0));
        if (t.name().equals("ioctl")) {
            String request = t.arg(1);
            if (fd != null && fd.startsWith("socket:") && (request.startsWith("SIOCS") || request.startsWith("SIOCADD")
                    || request.startsWith("SIOCDEL") || request.startsWith("SIOCDARP") || request.startsWith("SIOCDRARP"))) {
                findings.add(new Finding(Finding.Kind.SYSTEM, "ioctl " + request + " " + t.arg(2)));
            }
            return;
        }
        String address = address(t);
        if (netlink.contains(fd)) {
            String type = Tolerated.netlinkChange(String.join(", ", t.args()));
            if (type != null) {
                findings.add(new Finding(Finding.Kind.SYSTEM, t.name() + " netlink " + type));
            }
        } else if (network.containsKey(fd)) {
            if (!t.name().equals("bind") || address == null || !loopbackPortZero(address)) {
                network.put(fd, network.get(fd) + ", " + t.name() + (address == null ? "" : " " + address));
                used.add(fd);
            }
        } else if (t.name().equals("listen") || address != null && !Tolerated.socket(address)) {
            findings.add(new Finding(Finding.Kind.NETWORK, t.name() + " " + (address == null ? t.arg(0) : address)));
        }
    }

    /** Adds a finding for every network socket that could reach something; call once, at the end. */
    void finish() {
        network.forEach((fd, what) -> {
            if (used.contains(fd)) {
                findings.add(new Finding(Finding.Kind.NETWORK, what));
            }
        });
    }

    private static boolean loopbackPortZero(String address) {
        return (address.contains("htons(0)") && (address.contains("\"::1\"") || address.contains("127.0.0.1")));
    }

    /** The address a connect, bind or send names, or null when it names none. */
    private static String address(TraceLine t) {
        for (String a : t.args()) {
            int family = a.indexOf("sa_family=");
            if (family >= 0 && !a.contains("AF_NETLINK")) {
                int path = a.indexOf("sun_path=");
                return path >= 0 ? TraceLine.unquote(a.substring(path + 9).replace("}", "")) : a;
            }
        }
        return null;
    }
}
