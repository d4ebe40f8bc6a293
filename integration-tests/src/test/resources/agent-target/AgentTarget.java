import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A small JVM tool that starts processes the ways tools do, run by the integration tests (on Java
 * 17 and 25) with the shellgate agent. Compiled with --release 17; uses no class of shellgate, so
 * it reads a refusal the way any caller could: an IOException, and its accessors by reflection.
 *
 * Every process it tries prints one line: "RAN exit=N out=TEXT" or "REFUSED class=C rule=R
 * tier=T msg=M" or "FAILED E".
 */
public final class AgentTarget {

    public static void main(String[] args) throws Exception {
        String mode = args[0];
        List<String> rest = Arrays.asList(args).subList(1, args.length);
        switch (mode) {
            case "pb" -> run(() -> new ProcessBuilder(rest).start());
            // pb-in DIR K=V argv...: a directory and one added variable
            case "pb-in" -> run(() -> {
                ProcessBuilder pb = new ProcessBuilder(rest.subList(2, rest.size())).directory(new File(rest.get(0)));
                String[] kv = rest.get(1).split("=", 2);
                pb.environment().put(kv[0], kv[1]);
                return pb.start();
            });
            // pb-env DIR [-NAME | NAME=VALUE]... -- argv...: a directory, variables taken out and put in
            case "pb-env" -> run(() -> {
                int end = rest.indexOf("--");
                ProcessBuilder pb = new ProcessBuilder(rest.subList(end + 1, rest.size())).directory(new File(rest.get(0)));
                for (String change : rest.subList(1, end)) {
                    if (change.startsWith("-")) {
                        pb.environment().remove(change.substring(1));
                    } else {
                        String[] kv = change.split("=", 2);
                        pb.environment().put(kv[0], kv[1]);
                    }
                }
                return pb.start();
            });
            // pb-to FILE argv..., pb-append FILE argv..., pb-from FILE argv...: standard output to, or input from, a file
            case "pb-to" -> run(() -> new ProcessBuilder(rest.subList(1, rest.size())).redirectOutput(new File(rest.get(0))).start());
            case "pb-append" -> run(() -> new ProcessBuilder(rest.subList(1, rest.size()))
                    .redirectError(ProcessBuilder.Redirect.appendTo(new File(rest.get(0)))).start());
            case "pb-from" -> run(() -> new ProcessBuilder(rest.subList(1, rest.size())).redirectInput(new File(rest.get(0))).start());
            case "pb-discard" -> run(() -> new ProcessBuilder(rest).redirectOutput(ProcessBuilder.Redirect.DISCARD)
                    .redirectError(ProcessBuilder.Redirect.DISCARD).start());
            case "exec" -> run(() -> Runtime.getRuntime().exec(rest.get(0)));
            case "exec-array" -> run(() -> Runtime.getRuntime().exec(rest.toArray(new String[0])));
            // exec-env-dir COMMAND DIR K=V: Runtime.exec(String, String[], File)
            case "exec-env-dir" -> run(() -> Runtime.getRuntime().exec(rest.get(0), new String[] {rest.get(2),
                "PATH=/usr/bin:/bin"}, new File(rest.get(1))));
            case "pipeline" -> pipeline(rest);
            case "threads" -> threads(Integer.parseInt(rest.get(0)), Integer.parseInt(rest.get(1)), rest.get(2));
            case "spawn-true" -> spawnTrue(Integer.parseInt(rest.get(0)), rest.size() > 1 ? Integer.parseInt(rest.get(1)) : 50);
            // each-line argv...: starts argv, and again for every line on standard input
            case "each-line" -> {
                java.io.BufferedReader in = new java.io.BufferedReader(new java.io.InputStreamReader(System.in));
                do {
                    run(() -> new ProcessBuilder(rest).start());
                    System.out.flush();
                } while (in.readLine() != null);
            }
            // shell-lines argv...: like an agent's shell tool, starts argv + [line] for every line on
            // standard input, one after the other
            case "shell-lines" -> {
                java.io.BufferedReader in = new java.io.BufferedReader(new java.io.InputStreamReader(System.in));
                for (String line = in.readLine(); line != null; line = in.readLine()) {
                    List<String> argv = new java.util.ArrayList<>(rest);
                    argv.add(line);
                    run(() -> new ProcessBuilder(argv).redirectError(ProcessBuilder.Redirect.INHERIT).start());
                    System.out.flush();
                }
            }
            // one-builder LIB FILE argv...: one builder started as it is, again, with LD_PRELOAD=LIB
            // put in its environment, without it again, and with its output sent to FILE
            case "one-builder" -> {
                ProcessBuilder pb = new ProcessBuilder(rest.subList(2, rest.size()));
                run(pb::start);
                run(pb::start);
                pb.environment().put("LD_PRELOAD", rest.get(0));
                run(pb::start);
                pb.environment().remove("LD_PRELOAD");
                run(pb::start);
                pb.redirectOutput(new File(rest.get(1)));
                run(pb::start);
            }
            // again-after SECONDS argv...: starts argv, waits, starts it again
            case "again-after" -> {
                List<String> argv = rest.subList(1, rest.size());
                run(() -> new ProcessBuilder(argv).start());
                Thread.sleep(Long.parseLong(rest.get(0)) * 1000);
                run(() -> new ProcessBuilder(argv).start());
            }
            // attach-then MARKER: starts echo (before any agent), says READY, waits for a line on
            // standard input (the test attaches the agent meanwhile), then tries touch MARKER and echo
            case "attach-then" -> {
                run(() -> new ProcessBuilder("echo", "before").start());
                System.out.println("READY");
                System.out.flush();
                new java.io.BufferedReader(new java.io.InputStreamReader(System.in)).readLine();
                run(() -> new ProcessBuilder("touch", rest.get(0)).start());
                run(() -> new ProcessBuilder("echo", "after").start());
            }
            // cwd-gone argv...: deletes its own (empty) working directory, then starts argv there
            case "cwd-gone" -> {
                java.nio.file.Files.delete(java.nio.file.Path.of("").toAbsolutePath());
                run(() -> new ProcessBuilder(rest).start());
            }
            // open-files: starts echo, then prints "FILE PATH cloexec=BOOL" for each file this JVM holds open
            case "open-files" -> {
                run(() -> new ProcessBuilder("echo", "x").start());
                java.nio.file.Path fds = java.nio.file.Path.of("/proc/self/fd");
                try (java.util.stream.Stream<java.nio.file.Path> all = java.nio.file.Files.list(fds)) {
                    for (java.nio.file.Path fd : all.toList()) {
                        try {
                            String file = java.nio.file.Files.readSymbolicLink(fd).toString();
                            String flags = java.nio.file.Files.readAllLines(java.nio.file.Path.of("/proc/self/fdinfo", fd.getFileName()
                                    .toString())).stream().filter(l -> l.startsWith("flags:")).findFirst().orElseThrow();
                            boolean cloexec = (Integer.parseInt(flags.substring(6).trim(), 8) & 02000000) != 0;
                            System.out.println("FILE " + file + " cloexec=" + cloexec);
                        } catch (IOException e) {
                            // the directory listing's own descriptor, closed by now
                        }
                    }
                }
            }
            // write-files PATH...: changes each file with plain file calls (no process), nine ways, and
            // prints "WROTE PATH via API" or "KEPT PATH via API: EXCEPTION" for each; then starts echo
            case "write-files" -> {
                for (String path : rest) {
                    writeFiles(path);
                }
                // then a process, which the gate judges and logs as before
                run(() -> new ProcessBuilder("echo", "after").start());
            }
            // proc-shells OUTSIDE_PID DIR: starts /bin/bash -c 'sleep 117; :', and while that shell runs,
            // starts the shell programs /proc shows (its exe, the exe and root of OUTSIDE_PID, a bash
            // outside) directly, each touching DIR/KIND; prints "FOUND" once it saw its shell, then
            // "TRIED KIND RAN exit=N out=" or "TRIED KIND FAILED E" for each
            case "proc-shells" -> procShells(rest.get(0), rest.get(1));
            case "nothing" -> System.out.println("NOTHING");
            default -> throw new IllegalArgumentException(mode);
        }
    }

    private static void procShells(String outside, String dir) throws Exception {
        Process shell = new ProcessBuilder("/bin/bash", "-c", "sleep 117; :").redirectError(ProcessBuilder.Redirect.INHERIT).start();
        long deadline = System.nanoTime() + 120_000_000_000L;
        Long inside = null;
        while (inside == null && shell.isAlive() && System.nanoTime() < deadline) {
            for (ProcessHandle h : shell.descendants().toList()) {
                String cmdline;
                try {
                    cmdline = new String(java.nio.file.Files.readAllBytes(java.nio.file.Path.of("/proc/" + h.pid() + "/cmdline")),
                            StandardCharsets.UTF_8);
                } catch (IOException e) {
                    continue;
                }
                if (cmdline.equals("sleep\0" + "117\0")) {
                    inside = h.parent().map(ProcessHandle::pid).orElse(null);
                }
            }
            Thread.sleep(100);
        }
        if (inside == null) {
            System.out.println("NOT FOUND " + describe(() -> shell));
            return;
        }
        System.out.println("FOUND");
        String[][] tries = {{"inside-exe", "/proc/" + inside + "/exe"}, {"outside-exe", "/proc/" + outside + "/exe"},
            {"outside-root", "/proc/" + outside + "/root/bin/bash"}};
        for (String[] t : tries) {
            System.out.println("TRIED " + t[0] + " " + describe(() -> new ProcessBuilder(t[1], "-c", "touch " + dir + "/" + t[0]).start()));
        }
        shell.descendants().forEach(ProcessHandle::destroyForcibly);
        shell.destroyForcibly();
    }

    private static void writeFiles(String path) {
        java.nio.file.Path p = java.nio.file.Path.of(path);
        byte[] line = "\n[[approved]]\nid = \"by-the-agent\"\ncommand = \"touch x\"\n".getBytes(StandardCharsets.UTF_8);
        write(path, "FileOutputStream", () -> {
            try (java.io.FileOutputStream out = new java.io.FileOutputStream(path, true)) {
                out.write(line);
            }
        });
        write(path, "RandomAccessFile", () -> {
            try (java.io.RandomAccessFile f = new java.io.RandomAccessFile(path, "rw")) {
                f.seek(f.length());
                f.write(line);
            }
        });
        write(path, "Files.newOutputStream", () -> {
            try (java.io.OutputStream out = java.nio.file.Files.newOutputStream(p, java.nio.file.StandardOpenOption.CREATE,
                    java.nio.file.StandardOpenOption.APPEND)) {
                out.write(line);
            }
        });
        write(path, "FileChannel.open", () -> {
            try (java.nio.channels.FileChannel ch = java.nio.channels.FileChannel.open(p, java.nio.file.StandardOpenOption.CREATE,
                    java.nio.file.StandardOpenOption.WRITE, java.nio.file.StandardOpenOption.APPEND)) {
                ch.write(java.nio.ByteBuffer.wrap(line));
            }
        });
        write(path, "Files.write", () -> java.nio.file.Files.write(p, line, java.nio.file.StandardOpenOption.CREATE,
                java.nio.file.StandardOpenOption.APPEND));
        write(path, "Files.move", () -> fromTemp(line, temp -> java.nio.file.Files.move(temp, p,
                java.nio.file.StandardCopyOption.REPLACE_EXISTING)));
        write(path, "Files.copy", () -> fromTemp(line, temp -> java.nio.file.Files.copy(temp, p,
                java.nio.file.StandardCopyOption.REPLACE_EXISTING)));
        write(path, "File.renameTo", () -> {
            // a rename does not cross file systems: the new file beside the target where that can be made
            java.nio.file.Path temp;
            try {
                temp = java.nio.file.Files.createTempFile(p.toAbsolutePath().getParent(), "agent-target", ".toml");
            } catch (IOException | RuntimeException e) {
                temp = java.nio.file.Files.createTempFile("agent-target", ".toml");
            }
            java.nio.file.Files.write(temp, line);
            try {
                if (!temp.toFile().renameTo(new File(path))) {
                    throw new IOException("not renamed");
                }
            } finally {
                java.nio.file.Files.deleteIfExists(temp);
            }
        });
        write(path, "File.delete", () -> {
            if (!new File(path).delete()) {
                throw new IOException("not deleted");
            }
        });
    }

    interface Write {
        void write() throws IOException;
    }

    interface FromTemp {
        void from(java.nio.file.Path temp) throws IOException;
    }

    /** Writes {@code line} to a new temporary file, hands it to {@code over}, and deletes what is left of it. */
    private static void fromTemp(byte[] line, FromTemp over) throws IOException {
        java.nio.file.Path temp = java.nio.file.Files.createTempFile("agent-target", ".toml");
        java.nio.file.Files.write(temp, line);
        try {
            over.from(temp);
        } finally {
            java.nio.file.Files.deleteIfExists(temp);
        }
    }

    private static void write(String path, String api, Write w) {
        try {
            w.write();
            System.out.println("WROTE " + path + " via " + api);
        } catch (IOException | RuntimeException e) {
            System.out.println("KEPT " + path + " via " + api + ": " + String.valueOf(e).replace('\n', ' '));
        }
    }

    interface Start {
        Process start() throws IOException;
    }

    private static void run(Start start) throws Exception {
        System.out.println(describe(start));
    }

    private static String describe(Start start) throws Exception {
        Process p;
        try {
            p = start.start();
        } catch (IOException e) {
            return refusal(e);
        }
        p.getOutputStream().close();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
        return "RAN exit=" + p.waitFor() + " out=" + out;
    }

    private static String refusal(IOException e) {
        Throwable t = e;
        // ProcessBuilder wraps what start throws in an IOException saying "Cannot run program"
        while (t != null && !t.getClass().getSimpleName().equals("ShellgateRefusedException")) {
            t = t.getCause();
        }
        if (t == null) {
            return "FAILED " + e;
        }
        try {
            return "REFUSED class=" + t.getClass().getName() + " rule=" + call(t, "rule") + " tier=" + call(t, "tier")
                    + " msg=" + t.getMessage() + " outer=" + e.getMessage();
        } catch (ReflectiveOperationException r) {
            return "FAILED " + r;
        }
    }

    private static Object call(Object o, String method) throws ReflectiveOperationException {
        return o.getClass().getMethod(method).invoke(o);
    }

    /** pipeline A1 A2 | B1 B2 | ...: ProcessBuilder.startPipeline; prints the last stage's output. */
    private static void pipeline(List<String> words) throws Exception {
        List<ProcessBuilder> stages = new ArrayList<>();
        List<String> current = new ArrayList<>();
        for (String w : words) {
            if (w.equals("|")) {
                stages.add(new ProcessBuilder(current));
                current = new ArrayList<>();
            } else {
                current.add(w);
            }
        }
        stages.add(new ProcessBuilder(current));
        List<Process> processes;
        try {
            processes = ProcessBuilder.startPipeline(stages);
        } catch (IOException e) {
            System.out.println(refusal(e));
            return;
        }
        Process last = processes.get(processes.size() - 1);
        String out = new String(last.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
        System.out.println("RAN exit=" + last.waitFor() + " out=" + out);
    }

    /**
     * N threads start processes at once for ROUNDS rounds each: an allowed echo (must run and
     * print), a denied delete and an asked touch of MARKER (both must be refused).
     */
    private static void threads(int n, int rounds, String marker) throws Exception {
        AtomicInteger good = new AtomicInteger();
        List<String> bad = new ArrayList<>();
        CountDownLatch go = new CountDownLatch(1);
        List<Thread> threads = new ArrayList<>();
        for (int t = 0; t < n; t++) {
            int id = t;
            Thread thread = new Thread(() -> {
                try {
                    go.await();
                    for (int r = 0; r < rounds; r++) {
                        String word = "t" + id + "r" + r;
                        String a = describe(() -> new ProcessBuilder("echo", word).start());
                        String d = describe(() -> new ProcessBuilder("rm", "-rf", "/").start());
                        String k = describe(() -> new ProcessBuilder("touch", marker).start());
                        if (a.equals("RAN exit=0 out=" + word) && d.contains("rule=rm-recursive-critical tier=deny")
                                && k.contains("tier=ask")) {
                            good.addAndGet(3);
                        } else {
                            synchronized (bad) {
                                bad.add(a + " / " + d + " / " + k);
                            }
                        }
                    }
                } catch (Exception e) {
                    synchronized (bad) {
                        bad.add(e.toString());
                    }
                }
            });
            thread.start();
            threads.add(thread);
        }
        go.countDown();
        for (Thread t : threads) {
            t.join();
        }
        System.out.println("THREADS good=" + good.get() + " bad=" + bad.size());
        bad.stream().limit(5).forEach(b -> System.out.println("BAD " + b));
    }

    /** Starts /bin/true WARMUP times, then N times more, and prints the mean time of one of the N starts in microseconds. */
    private static void spawnTrue(int n, int warmup) throws Exception {
        for (int i = 0; i < warmup; i++) {
            new ProcessBuilder("/bin/true").start().waitFor();
        }
        long t0 = System.nanoTime();
        for (int i = 0; i < n; i++) {
            new ProcessBuilder("/bin/true").start().waitFor();
        }
        System.out.println("SPAWN_US " + (System.nanoTime() - t0) / 1000 / n);
    }
}
