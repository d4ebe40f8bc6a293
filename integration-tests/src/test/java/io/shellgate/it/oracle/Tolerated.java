package io.shellgate.it.oracle;

import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What the oracle lets an allowed line do, each with the reason it is harmless. Everything else a
 * line writes, runs, opens or connects to is a finding. docs/oracle.md lists these too.
 */
final class Tolerated {

    /** Outputs that are no files: the bit bucket, the terminal, the line's own output streams. */
    private static final Set<String> OUTPUTS = Set.of("/dev/null", "/dev/tty", "/dev/stdout", "/dev/stderr",
            "/dev/fd/1", "/dev/fd/2", "/proc/self/fd/1", "/proc/self/fd/2");
    /**
     * Local sockets that answer and record without acting: glibc's name service, which looks up a
     * user or group ({@code ls -l}, {@code id}) through nscd or systemd's user database, and the
     * system log ({@code /dev/log}), where {@code pidof} reports a bad argument.
     */
    private static final List<String> LOCAL_SERVICES = List.of("/var/run/nscd/socket", "/run/nscd/socket",
            "/run/systemd/userdb/", "/dev/log", "/run/systemd/journal/dev-log");

    /**
     * Programs that run another program by design, on the files and pattern they were given:
     * Debian's {@code egrep}, {@code fgrep} and {@code rgrep} are {@code exec grep -E "$@"} and the
     * like, {@code zgrep} pipes {@code gzip -cdfq} into {@code grep}, {@code sdiff} runs {@code diff},
     * and {@code watch} runs its command with {@code sh -c} (the judge judges it as sh code). Maven's
     * {@code mvn} is a script that runs {@code uname}, {@code ls}, {@code expr}, {@code dirname} and
     * {@code tr} to find its home and its project and then starts
     * {@code java} (the judge checks the repository's {@code .mvn/jvm.config}, which gives that JVM options).
     * Debian's {@code lsb_release} is a {@code sh} script that parses its options with {@code getopt},
     * reads {@code /etc/os-release} and changes case with {@code cut} and {@code tr} ({@code cat} prints its help).
     */
    static final Map<String, List<String>> RUNS_BY_DESIGN = Map.of("egrep", List.of("grep"), "fgrep", List.of("grep"),
            "rgrep", List.of("grep"), "zgrep", List.of("grep", "gzip"), "sdiff", List.of("diff"), "watch", List.of("sh"),
            "mvn", List.of("java", "uname", "ls", "expr", "dirname", "tr"),
            "lsb_release", List.of("getopt", "cut", "tr", "cat"));
    /**
     * What a login shell ({@code bash -lc}, Codex's way of running every command) runs from the
     * system's and the user's login files before the line: Debian's {@code /etc/profile} runs
     * {@code id -u} to choose the PATH. A decision of policy (2026-12-02): login files are the user's
     * own configuration, which every login shell the user starts runs; the agent cannot change
     * them without a write that asks, and the judge judges the line the shell runs after them.
     */
    static final List<String> LOGIN_FILES_RUN = List.of("id");
    /**
     * Where git keeps the programs it runs for its own subcommands ({@code git submodule} is a
     * script there): part of the git that was judged, not another program.
     */
    static final String GIT_EXEC_PATH = "/usr/lib/git-core/";

    private Tolerated() {}

    /**
     * Whether a process writing {@code path} changes only the line's own processes or the JVM's
     * bookkeeping: their settings under {@code /proc/<pid>/} (the JVM writes {@code coredump_filter}), and HotSpot's
     * performance counters under {@code /tmp/hsperfdata_<user>/}, which the JVM deletes when it ends.
     */
    static boolean ownState(String path, Set<Integer> pids) {
        if (path.startsWith("/proc/self/") || path.startsWith("/proc/thread-self/") || path.startsWith("/tmp/hsperfdata_")) {
            return true;
        }
        if (!path.startsWith("/proc/")) {
            return false;
        }
        String rest = path.substring("/proc/".length());
        int slash = rest.indexOf('/');
        try {
            return slash > 0 && pids.contains(Integer.parseInt(rest.substring(0, slash)));
        } catch (NumberFormatException e) {
            return false;
        }
    }

    /**
     * Whether {@code program} opens every process's environment without printing it: {@code ps}
     * (procps 4) reads {@code /proc/*}{@code /environ} of each process it lists, and prints an
     * environment only when asked ({@code ps e}), which the check of the line's output catches.
     */
    static boolean readsEnvironmentsWithoutPrinting(String program) {
        return program != null && program.equals("/usr/bin/ps");
    }

    /** Whether opening {@code path} for writing writes no file. */
    static boolean output(String path) {
        // /dev/stdout opened while the output is a pipe: strace names the pipe
        return OUTPUTS.contains(path) || path.startsWith("pipe:[");
    }

    /**
     * Whether a change to these paths is git refreshing the stat cache of its index: {@code git status}
     * (and other commands that compare the work tree) rewrite {@code .git/index} under
     * {@code .git/index.lock} when the files' times changed, and a fresh copy of the fixture always has
     * new times. It records what git already knows about the files, not their contents.
     */
    static boolean change(String syscall, List<String> paths) {
        boolean lock = paths.stream().allMatch(p -> p.endsWith("/.git/index.lock") || p.equals(".git/index.lock"));
        if (!paths.isEmpty() && lock && (syscall.equals("open") || syscall.startsWith("unlink"))) {
            return true;
        }
        return syscall.startsWith("rename") && paths.size() == 2 && paths.get(0).endsWith(".git/index.lock")
                && paths.get(1).equals(paths.get(0).substring(0, paths.get(0).length() - 5));
    }

    /**
     * Whether {@code program} making this directory only makes its own settings directory, empty:
     * procps' {@code top} creates {@code $XDG_CONFIG_HOME/procps} (by default {@code ~/.config/procps};
     * the oracle's hostile worlds set the variable to {@code ~/.xdg}) at start (it writes a file there only
     * when a person saves settings with {@code W} in its interactive screen, which it does not read
     * from a line's input). A decision of policy: the red team counts {@code top -b -n 1} as an
     * everyday read-only command, and an empty directory of top's own holds nothing and runs nothing.
     */
    static boolean ownSettingsDirectory(String program, String syscall, List<String> paths) {
        return "/usr/bin/top".equals(program) && (syscall.equals("mkdir") || syscall.equals("mkdirat")) && paths.size() == 1
                && (paths.getFirst().endsWith("/.config/procps") || paths.getFirst().endsWith("/.xdg/procps"));
    }

    /** Whether connecting to this address only asks the name service or writes to the system log. */
    static boolean socket(String address) {
        return LOCAL_SERVICES.stream().anyMatch(address::startsWith);
    }

    /**
     * The first netlink message type in a send that is not a query (RTM_NEWLINK, SOCK_DESTROY), or null
     * when every message only asks ({@code ip addr}'s RTM_GETADDR dumps, {@code ss}'s socket diagnostics).
     */
    static String netlinkChange(String args) {
        int at = 0;
        while ((at = args.indexOf("nlmsg_type=", at)) >= 0) {
            int start = at + "nlmsg_type=".length();
            int end = start;
            while (end < args.length() && args.charAt(end) != ',' && args.charAt(end) != '}') {
                end++;
            }
            String type = args.substring(start, end).strip();
            if (!type.contains("GET") && !type.equals("SOCK_DIAG_BY_FAMILY") && !type.startsWith("0 ")
                    && !type.equals("0") && !type.equals("NLMSG_DONE")) {
                return type;
            }
            at = end;
        }
        return null;
    }
}
