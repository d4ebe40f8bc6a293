package io.shellgate.benchmarks;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.shellgate.judge.Dialect;
import io.shellgate.judge.Judge;
import io.shellgate.judge.JudgeRequest;
import io.shellgate.judge.Judges;
import io.shellgate.judge.Verdict;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Time to judge one command line in a warm JVM, over the reference corpora ({@code shared/corpus})
 * and shellgate's own corpus, one line after another. Sample mode reports the median and p99.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 5)
@Measurement(iterations = 5, time = 10)
@Fork(value = 1, jvmArgsAppend = {"--enable-native-access=ALL-UNNAMED"})
public class JudgeBenchmark {

    /**
     * Which lines: {@code all}, {@code reference} or {@code own}; {@code git} is the git lines of
     * all of them judged in a real repository (made with the git on PATH), where each judgement
     * asks git's own answer about the repository (kept until its files change).
     */
    @Param({"all"})
    public String corpus;

    private Judge judge;
    private List<JudgeRequest> requests;
    private int next;

    @Setup(Level.Trial)
    public void setUp() throws IOException {
        judge = Judges.defaults();
        Path cwd = Files.createTempDirectory("shellgate-bench");
        Map<String, String> env = Map.of("HOME", cwd.toString(), "PATH", "/usr/local/bin:/usr/bin:/bin", "USER", "bench");
        requests = new ArrayList<>();
        List<String> lines = lines(corpus.equals("git") ? "all" : corpus);
        if (corpus.equals("git")) {
            repository(cwd);
            lines = lines.stream().filter(l -> l.startsWith("git ") || l.startsWith("cd ") && l.contains("git ")).toList();
        }
        for (String line : lines) {
            requests.add(new JudgeRequest(line, Dialect.BASH, cwd, env));
        }
        if (requests.isEmpty()) {
            throw new IllegalStateException("no corpus lines found; run from the repository (next to ../shared/corpus)");
        }
    }

    @Benchmark
    public Verdict judgeOneLine() {
        JudgeRequest r = requests.get(next);
        next = next + 1 == requests.size() ? 0 : next + 1;
        return judge.judge(r);
    }

    /** Makes {@code dir} a repository with one commit. */
    private static void repository(Path dir) throws IOException {
        Files.writeString(dir.resolve("README.md"), "hello\n");
        Files.createDirectories(dir.resolve("src"));
        Files.writeString(dir.resolve("src/Main.java"), "class Main {}\n");
        ProcessBuilder pb = new ProcessBuilder("sh", "-c", "git init -q -b main . && git add . && git -c user.name=b"
                + " -c user.email=b@b commit -qm init").directory(dir.toFile()).inheritIO();
        pb.environment().put("HOME", dir.toString());
        try {
            if (pb.start().waitFor() != 0) {
                throw new IOException("git init failed in " + dir);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException(e);
        }
    }

    static List<String> lines(String which) throws IOException {
        List<String> out = new ArrayList<>();
        Path repo = repository();
        if (!which.equals("own")) {
            Path shared = repo == null ? null : repo.getParent().resolve("shared/corpus");
            if (shared != null && Files.isDirectory(shared)) {
                ObjectMapper json = new ObjectMapper();
                try (Stream<Path> files = Files.list(shared)) {
                    for (Path f : files.filter(p -> p.toString().endsWith(".jsonl")).sorted().toList()) {
                        for (String l : Files.readAllLines(f, StandardCharsets.UTF_8)) {
                            JsonNode n = json.readTree(l);
                            if (!n.has("dialect") || n.get("dialect").asText().equals("bash")) {
                                out.add(n.get("cmd").asText());
                            }
                        }
                    }
                }
            }
        }
        if (!which.equals("reference") && repo != null) {
            Path own = repo.resolve("judge/src/test/resources/corpus");
            try (Stream<Path> files = Files.list(own)) {
                for (Path f : files.filter(p -> p.toString().endsWith(".txt")).sorted().toList()) {
                    for (String l : Files.readAllLines(f, StandardCharsets.UTF_8)) {
                        if (!l.isBlank() && !l.startsWith("#") && l.indexOf(' ') > 0) {
                            out.add(l.substring(l.indexOf(' ') + 1).replace("⏎", "\n").replace("␍", "\r"));
                        }
                    }
                }
            }
        }
        return out;
    }

    /** The shellgate repository: the first directory upwards with judge/src/test/resources/corpus. */
    static Path repository() {
        for (Path d = Path.of("").toAbsolutePath(); d != null; d = d.getParent()) {
            if (Files.isDirectory(d.resolve("judge/src/test/resources/corpus"))) {
                return d;
            }
        }
        return null;
    }
}
