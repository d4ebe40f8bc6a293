package io.shellgate.benchmarks;

import io.shellgate.judge.Dialect;
import io.shellgate.judge.Judge;
import io.shellgate.judge.JudgeRequest;
import io.shellgate.judge.Judges;
import io.shellgate.judge.Verdict;
import io.shellgate.rules.Tier;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.TimeUnit;
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
 * Time to answer the lines that once took exponential time (issue 19, class 12): nested defaults
 * ({@code x=${y:-${y:-...$(touch f)}}}, 9.9 s for 24 levels before), deep command substitutions,
 * deep subshells and a value doubled at every step. Each must be answered, and not allowed; the
 * set-up refuses to measure a line that is allowed.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 3, time = 3)
@Fork(value = 1, jvmArgsAppend = {"--enable-native-access=ALL-UNNAMED"})
public class NestedExpansionBenchmark {

    @Param({"defaults-16", "defaults-24", "defaults-30", "defaults-256", "substitutions-100", "substitutions-2000",
            "subshells-50", "doubling-40"})
    public String line;

    private Judge judge;
    private JudgeRequest request;

    @Setup(Level.Trial)
    public void setUp() {
        judge = Judges.defaults();
        String[] kind = line.split("-");
        int n = Integer.parseInt(kind[1]);
        String text = switch (kind[0]) {
            case "defaults" -> "x=" + "${y:-".repeat(n) + "$(touch /tmp/pwn)" + "}".repeat(n);
            case "substitutions" -> "echo " + "$(echo ".repeat(n) + "$(touch /tmp/pwn)" + ")".repeat(n);
            case "subshells" -> "( ".repeat(n) + "touch /tmp/pwn" + " )".repeat(n);
            case "doubling" -> "x=a; " + "x=$x$x; ".repeat(n) + "echo $x";
            default -> throw new IllegalArgumentException(line);
        };
        request = new JudgeRequest(text, Dialect.BASH, Path.of("/tmp"), Map.of("PATH", "/usr/bin:/bin", "HOME", "/tmp"));
        if (judge.judge(request).tier() == Tier.ALLOW) {
            throw new IllegalStateException(line + " is allowed");
        }
    }

    @Benchmark
    public Verdict judgeNestedLine() {
        return judge.judge(request);
    }
}
