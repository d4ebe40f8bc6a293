package io.shellgate.it.oracle;

import static org.assertj.core.api.Assertions.assertThat;

import io.shellgate.judge.Dialect;
import io.shellgate.judge.Judges;
import io.shellgate.rules.Layer;
import io.shellgate.rules.Policy;
import io.shellgate.rules.PolicyLoader;
import io.shellgate.rules.PolicySource;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The oracle can fail: a policy that lists programs as read-only by mistake gets the effects of
 * their lines reported, each in its class, while everyday lines of the built-in policy run clean.
 */
class OracleSelfTest {

    /** Read-only entries that are wrong on purpose, each for one class of finding. */
    private static final String UNSAFE = """
            [[read-only]]
            id = "unsafe-touch"
            command = ["touch"]
            reason = "oracle self-test: touch listed as read-only by mistake (it creates files)"
            operands = "text"
            options = ["*"]
            match = ["touch x"]

            [[read-only]]
            id = "unsafe-shuf"
            command = ["shuf"]
            reason = "oracle self-test: shuf's operands taken for text (they are files it reads)"
            operands = "text"
            options = ["-n=", "--random-source="]
            match = ["shuf -n 1 a.txt"]

            [[read-only]]
            id = "unsafe-getent"
            command = ["getent"]
            reason = "oracle self-test: getent hosts asks the name servers"
            operands = "text"
            match = ["getent hosts x"]

            [[read-only]]
            id = "unsafe-prlimit"
            command = ["prlimit"]
            reason = "oracle self-test: prlimit runs the command it is given"
            operands = "text"
            match = ["prlimit ls"]
            """;
    private static final List<String> EVERYDAY = List.of("ls -la", "cat README.md", "git log --oneline -3", "grep -rn foo src",
            "git status", "wc -l a.txt b.txt", "find . -name '*.java'", "id", "ls -l ~", "ip addr");

    private static Path base;
    private static Map<String, Oracle.Result> results;
    private static Report report;

    @BeforeAll
    static void run() throws Exception {
        base = Files.createTempDirectory("shellgate-oracle-self");
        World world = World.create(base);
        Policy policy = PolicyLoader.load(List.of(PolicyLoader.builtIn(),
                new PolicySource(Layer.EXPLICIT, "oracle-self-test.toml", UNSAFE)), world.home.toString());
        List<Candidate> candidates = new ArrayList<>(new PolicyLines(policy, new HelpOptions(world.proj, world.environment()),
                ExecutionOracleTest.SEED, true).generate(id -> id.startsWith("unsafe-")));
        for (String line : List.of("shuf -n 1 ~/.ssh/id_rsa", "shuf --random-source=id_rsa -n 1 a.txt",
                "getent hosts example.invalid", "prlimit touch oracle-pwned")) {
            candidates.add(new Candidate(line, Dialect.BASH, "self-test"));
        }
        EVERYDAY.forEach(l -> candidates.add(new Candidate(l, Dialect.BASH, "everyday")));
        Oracle.Run run = new Oracle(world, Judges.create(policy), policy.programs().shells().keySet(),
                base.resolve("work"), 2).run(candidates);
        report = new Report(world);
        results = run.results().stream().collect(Collectors.toMap(r -> r.candidate().line(), Function.identity(), (a, b) -> a));
        System.out.println(report.summary(run, 0));
    }

    @AfterAll
    static void cleanUp() throws Exception {
        Oracle.delete(base);
    }

    @Test
    void reportsTheFilesAnUnsafeEntryWrites() {
        assertThat(results.values().stream().filter(r -> r.candidate().line().startsWith("touch ")).toList())
                .isNotEmpty()
                .anySatisfy(r -> assertThat(kinds(r)).contains(Finding.Kind.WRITE));
    }

    @Test
    void reportsTheSecretsAnUnsafeEntryReads() {
        assertThat(List.of("shuf -n 1 ~/.ssh/id_rsa", "shuf --random-source=id_rsa -n 1 a.txt"))
                .anySatisfy(line -> assertThat(results).containsKey(line))
                .allSatisfy(line -> {
                    if (results.containsKey(line)) {
                        assertThat(details(results.get(line))).anyMatch(d -> d.startsWith("secret: opened ")
                                && d.contains("id_rsa"));
                    }
                });
    }

    @Test
    void reportsTheNameServerAnUnsafeEntryAsks() {
        assertThat(results).containsKey("getent hosts example.invalid");
        assertThat(kinds(results.get("getent hosts example.invalid"))).contains(Finding.Kind.NETWORK);
    }

    @Test
    void reportsTheProgramsAnUnsafeEntryRuns() {
        assertThat(results).containsKey("prlimit touch oracle-pwned");
        assertThat(details(results.get("prlimit touch oracle-pwned")))
                .anyMatch(d -> d.startsWith("exec: ran /usr/bin/touch"))
                .anyMatch(d -> d.startsWith("write: "));
    }

    @Test
    void everydayReadOnlyLinesRunClean() {
        for (String line : EVERYDAY) {
            assertThat(results).as("%s is allowed and ran", line).containsKey(line);
            assertThat(details(results.get(line))).as(line).isEmpty();
        }
    }

    private static List<Finding.Kind> kinds(Oracle.Result r) {
        return r.findings().stream().map(Finding::kind).toList();
    }

    private static List<String> details(Oracle.Result r) {
        return r.findings().stream().map(f -> f.kind().id() + ": " + report.detail(f)).toList();
    }
}
