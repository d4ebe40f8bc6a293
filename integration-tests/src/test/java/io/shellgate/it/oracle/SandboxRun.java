package io.shellgate.it.oracle;

import io.shellgate.judge.Dialect;
import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Runs lines for real in bubblewrap sandboxes: no network (every namespace unshared), no
 * capabilities, user 1000, the system read-only, a fresh copy of the world for every line, and
 * {@code strace -f} around each line. Several sandboxes run side by side, each working through its
 * share of the lines with the driver script ({@code oracle/driver.sh}).
 */
final class SandboxRun {

    /** A line to run, numbered: its results land in {@code out/<id>/}. */
    record Line(String id, Candidate candidate) {}

    /** How long a line may run: long enough for a JVM or npm to start on a busy machine, short enough for lines that wait forever. */
    static final int LIMIT_SECONDS = 5;
    /** Sandboxes side by side: one more than the cores, as lines that wait for their limit leave a core idle. */
    static final int WORKERS = Math.max(2, Math.min(4, Runtime.getRuntime().availableProcessors() + 1));
    /** The status of a line that ran into its time limit. */
    static final String LIMIT_STATUS = "limit";
    /** The status of a line whose strace had to be killed, so that its trace may lack its end. */
    static final String GUARD_STATUS = "killed";

    /** What strace records: everything the inspector reads, nothing more (each traced call costs time). */
    static final String CALLS;

    static {
        Set<String> calls = new TreeSet<>(List.of("open", "openat", "openat2", "creat", "truncate", "unlink", "unlinkat",
                "rename", "renameat", "renameat2", "mkdir", "mkdirat", "rmdir", "link", "linkat", "symlink", "symlinkat",
                "chmod", "fchmod", "fchmodat", "chown", "fchown", "fchownat", "lchown", "utime", "utimes", "utimensat",
                "futimesat", "mknod", "mknodat", "execve", "execveat", "ioctl"));
        calls.addAll(Inspector.NETWORK);
        calls.addAll(Inspector.SYSTEM);
        CALLS = String.join(",", calls);
    }

    private final World world;
    private final Path work;
    private final Path out;
    private final Path driver;

    SandboxRun(World world, Path work) throws IOException {
        this.world = world;
        this.work = Files.createDirectories(work.toAbsolutePath());
        Oracle.delete(this.work.resolve("out"));
        this.out = Files.createDirectories(this.work.resolve("out"));
        this.driver = this.work.resolve("driver.sh");
        try (InputStream in = SandboxRun.class.getResourceAsStream("/oracle/driver.sh")) {
            Files.write(driver, in.readAllBytes());
        }
    }

    /** Where the results of line {@code id} are. */
    Path dir(String id) {
        return out.resolve(id);
    }

    /**
     * Fails with a message that says what to install or allow when this machine cannot run the
     * sandbox: the oracle must not pass by running nothing.
     */
    void check() throws IOException, InterruptedException {
        for (String tool : List.of("bwrap", "strace")) {
            if (JudgedPrograms.lookUp(tool) == null) {
                throw new IllegalStateException("the execution oracle needs " + tool + " (apt-get install "
                        + (tool.equals("bwrap") ? "bubblewrap" : tool) + "); it is not in " + World.PATH);
            }
        }
        Line probe = new Line("probe", new Candidate("cat /etc/hostname", Dialect.BASH, "probe"));
        String log = run(0, List.of(probe));
        if (!Files.isRegularFile(dir("probe").resolve("status"))
                || Files.list(dir("probe")).noneMatch(p -> p.getFileName().toString().startsWith("trace."))) {
            throw new IllegalStateException("bubblewrap could not start the oracle's sandbox, or strace could not trace"
                    + " in it. The oracle needs user namespaces (sysctl user.max_user_namespaces > 0, and"
                    + " kernel.unprivileged_userns_clone=1 where that exists, or running as root) and ptrace inside"
                    + " them. bwrap said:\n" + log);
        }
    }

    /**
     * Runs every line, sharing them among {@code workers} sandboxes; returns the processor time they
     * used, in seconds (what the run costs on an idle machine, whatever else this one is doing).
     */
    double run(List<Line> lines, int workers) throws IOException, InterruptedException {
        List<List<Line>> shares = new ArrayList<>();
        for (int w = 0; w < workers; w++) {
            shares.add(new ArrayList<>());
        }
        for (int i = 0; i < lines.size(); i++) {
            shares.get(i % workers).add(lines.get(i));
        }
        List<Process> started = new ArrayList<>();
        for (int w = 0; w < workers; w++) {
            started.add(start(w, shares.get(w)));
        }
        for (int w = 0; w < workers; w++) {
            Process p = started.get(w);
            int status = p.waitFor();
            if (status != 0) {
                throw new IllegalStateException("the oracle's sandbox " + w + " ended with status " + status + ": "
                        + Files.readString(work.resolve("sandbox-" + w + ".log")));
            }
        }
        double cpu = 0;
        for (int w = 0; w < workers; w++) {
            cpu += seconds(out.resolve("list-" + w + ".cpu"));
        }
        return cpu;
    }

    /** The sum of the times in bash's {@code times} output ({@code 0m1.498s 0m2.258s}, two lines). */
    private static double seconds(Path times) throws IOException {
        double sum = 0;
        for (String word : Oracle.read(times, 1000).replace('\n', ' ').split(" ")) {
            int m = word.indexOf('m');
            if (m > 0 && word.endsWith("s")) {
                sum += Integer.parseInt(word.substring(0, m)) * 60 + Double.parseDouble(word.substring(m + 1, word.length() - 1));
            }
        }
        return sum;
    }

    private String run(int worker, List<Line> lines) throws IOException, InterruptedException {
        Process p = start(worker, lines);
        p.waitFor();
        return Files.readString(work.resolve("sandbox-" + worker + ".log"));
    }

    private Process start(int worker, List<Line> lines) throws IOException {
        Path list = work.resolve("list-" + worker);
        for (Line l : lines) {
            Files.createDirectories(dir(l.id())); // here, not in the sandbox: each mkdir there is a process per line
        }
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        for (Line l : lines) {
            for (String field : List.of(l.id(), shell(l.candidate().dialect()), l.candidate().line())) {
                bytes.writeBytes(field.getBytes(StandardCharsets.UTF_8));
                bytes.write(0);
            }
        }
        Files.write(list, bytes.toByteArray());
        ProcessBuilder pb = new ProcessBuilder(command(list)).redirectErrorStream(true)
                .redirectOutput(work.resolve("sandbox-" + worker + ".log").toFile())
                .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
        pb.environment().clear();
        pb.environment().putAll(world.environment());
        return pb.start();
    }

    static String shell(Dialect dialect) {
        return switch (dialect) {
            case ZSH -> "/usr/bin/zsh";
            case SH -> "/usr/bin/sh";
            default -> "/usr/bin/bash";
        };
    }

    private List<String> command(Path list) throws IOException {
        List<String> c = new ArrayList<>(List.of("bwrap", "--unshare-all", "--die-with-parent", "--new-session",
                "--cap-drop", "ALL", "--uid", "1000", "--gid", "1000", "--hostname", "oracle",
                "--ro-bind", "/usr", "/usr", "--ro-bind", "/etc", "/etc", "--ro-bind", "/var", "/var"));
        for (String d : List.of("/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32")) {
            Path p = Path.of(d);
            if (Files.isSymbolicLink(p)) {
                c.addAll(List.of("--symlink", Files.readSymbolicLink(p).toString(), d));
            } else if (Files.isDirectory(p)) {
                c.addAll(List.of("--ro-bind", d, d));
            }
        }
        c.addAll(List.of("--proc", "/proc", "--dev", "/dev", "--tmpfs", "/tmp", "--tmpfs", "/run"));
        for (Map.Entry<String, Path> m : world.mounts.entrySet()) {
            if (m.getKey().startsWith("/run/")) {
                c.addAll(List.of("--dir", Path.of(m.getKey()).getParent().toString()));
            }
            c.addAll(List.of("--ro-bind", m.getValue().toString(), m.getKey()));
        }
        for (String device : World.DEVICES) {
            c.addAll(List.of("--symlink", world.root + "/dev/" + device.substring(5), device));
        }
        c.addAll(List.of("--ro-bind", world.root.toString(), "/oracle/template", "--ro-bind", driver.toString(),
                "/oracle/driver.sh", "--ro-bind", list.toString(), "/oracle/list", "--bind", out.toString(), "/oracle/out",
                "--chdir", "/", "/usr/bin/bash", "/oracle/driver.sh", "/oracle/list", "/oracle/out", "/oracle/template",
                world.root.toString(), CALLS, Integer.toString(LIMIT_SECONDS), list.getFileName() + ".cpu"));
        return c;
    }
}
