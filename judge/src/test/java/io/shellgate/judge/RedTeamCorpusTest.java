package io.shellgate.judge;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.shellgate.rules.Tier;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Runs the red team's corpora ({@code redteam.jsonl}, {@code redteam-windows.jsonl}, {@code redteam3.jsonl} and
 * {@code redteam3-windows.jsonl} in {@code ../shared/corpus}): a {@code not_allow} case must not be allowed, a
 * {@code deny} case must be denied, and a share of the {@code allow} cases of each file must be allowed. Every case
 * that misses its expectation must be listed, with a reason, in {@code redteam-exceptions.tsv}; an
 * entry that no longer misses fails the test too, so the list only shrinks as holes are closed.
 *
 * <p>Cases with {@code "fixture": "proj"} are judged in a repository made by the corpus's own
 * {@code redteam-fixture.sh} (real bash and git), {@code "checkout"} ones in this checkout. Every
 * case sees {@code GITHUB_TOKEN} and {@code AWS_SECRET_ACCESS_KEY} set and {@code USERPROFILE} as
 * the home directory, as the corpus README says. A third-round case's {@code setup} runs in a fresh fixture made for
 * it, its {@code home} in a scratch home that is then the case's {@code HOME}; a third-round Windows case is judged
 * twice, with those secrets and with a bare environment, and counts as allowed when either allows it. Rewrite the list with
 * {@code -Dshellgate.rewriteExceptions=true}: the new file goes to {@code target/} for review.
 */
class RedTeamCorpusTest {

    private static final String EXCEPTIONS = "/redteam-exceptions.tsv";
    /**
     * The share of each file's everyday commands that must be allowed: 0.92 or more for the third round (today
     * redteam3.jsonl 84 of 88, redteam3-windows.jsonl 30 of 32), 0.90 for the earlier ones.
     */
    private static final Map<String, Double> ALLOW_SHARE = Map.of("redteam.jsonl", 0.90, "redteam-windows.jsonl", 0.90,
            "redteam3.jsonl", 0.95, "redteam3-windows.jsonl", 0.93);
    private static final List<String> FILES =
            List.of("redteam.jsonl", "redteam-windows.jsonl", "redteam3.jsonl", "redteam3-windows.jsonl");
    private static final Judge JUDGE = Judges.defaults();
    private static Path root;
    private static Sandbox sandbox;

    @BeforeAll
    static void setUp() throws IOException {
        root = Files.createTempDirectory("shellgate-redteam");
        sandbox = new Sandbox(root);
    }

    @AfterAll
    static void tearDown() throws IOException {
        try (Stream<Path> walk = Files.walk(root)) {
            walk.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }

    record Case(String file, String cmd, String expect, Dialect dialect, String fixture, String why, String setup,
            String home) {

        boolean judgedBare() {
            return file.equals("redteam3-windows.jsonl");
        }

        boolean met(Tier tier) {
            return switch (expect) {
                case "allow" -> tier == Tier.ALLOW;
                case "deny" -> tier == Tier.DENY;
                default -> tier != Tier.ALLOW;
            };
        }
    }

    @Test
    void noRedTeamCaseMissesItsExpectationUnlessListed() throws IOException, InterruptedException {
        Path dir = ReferenceCorpusTest.corpusDir();
        if (dir == null || !Files.isRegularFile(dir.resolve("redteam.jsonl"))) {
            if (System.getenv("CI") != null) {
                fail("the red-team corpora (../shared/corpus/redteam*.jsonl) are missing, and CI must run them");
            }
            Assumptions.abort("the red-team corpora (../shared/corpus) are not on this machine");
        }
        Path proj = fixture(dir, root.resolve("proj"));
        Path checkout = Path.of("").toAbsolutePath().getParent();
        Map<String, String> env = new HashMap<>(sandbox.env);
        env.put("GITHUB_TOKEN", "ghp_redteam");
        env.put("AWS_SECRET_ACCESS_KEY", "redteam");
        env.put("USERPROFILE", sandbox.home.toString());
        Map<String, String> bare = Map.of("PATH", sandbox.env.get("PATH"));
        Map<String, Path[]> prepared = new HashMap<>();

        Map<String, String> exceptions = new LinkedHashMap<>();
        for (String line : CorpusCase.resource(EXCEPTIONS).split("\n")) {
            if (line.isBlank() || line.startsWith("#")) {
                continue;
            }
            String[] cols = line.split("\t", 3);
            assertThat(cols).as("exception line needs file, command and reason: %s", line).hasSize(3);
            assertThat(cols[2].strip()).as("the reason for %s", cols[1]).isNotEmpty();
            exceptions.put(cols[0] + "\t" + cols[1], cols[2]);
        }
        List<String> unexplained = new ArrayList<>();
        Map<String, String> misses = new TreeMap<>();
        Map<String, int[]> allowed = new TreeMap<>();
        for (Case c : cases(dir)) {
            Path cwd = proj;
            Map<String, String> caseEnv = env;
            if (c.fixture().equals("checkout")) {
                cwd = checkout;
            } else if (!c.setup().isEmpty() || !c.home().isEmpty()) {
                Path[] made = prepared.computeIfAbsent(c.setup() + "\u0000" + c.home(), k -> prepare(dir, prepared.size(), c));
                cwd = made[0];
                caseEnv = new HashMap<>(env);
                caseEnv.put("HOME", made[1].toString());
                caseEnv.put("USERPROFILE", made[1].toString());
            }
            Verdict v = JUDGE.judge(new JudgeRequest(c.cmd(), c.dialect(), cwd, caseEnv));
            if (c.judgedBare() && v.tier() != Tier.ALLOW) {
                Verdict other = JUDGE.judge(new JudgeRequest(c.cmd(), c.dialect(), cwd, bare));
                if (other.tier() == Tier.ALLOW || (c.expect().equals("deny") && other.tier() != Tier.DENY)) {
                    v = other;
                }
            }
            if (c.expect().equals("allow")) {
                int[] counts = allowed.computeIfAbsent(c.file(), f -> new int[2]);
                counts[1]++;
                if (v.tier() == Tier.ALLOW) {
                    counts[0]++;
                }
            }
            if (c.met(v.tier())) {
                continue;
            }
            String key = c.file() + "\t" + ReferenceCorpusTest.escape(c.cmd());
            misses.put(key, exceptions.getOrDefault(key, propose(c)));
            if (!exceptions.containsKey(key)) {
                unexplained.add(c.file() + ": expected " + c.expect() + ", got " + v.tier().name().toLowerCase()
                        + " [" + c.why() + "]: " + ReferenceCorpusTest.escape(c.cmd()) + "   " + v.reasons());
            }
        }
        if (Boolean.getBoolean("shellgate.rewriteExceptions")) {
            StringBuilder sb = new StringBuilder(CorpusCase.resource(EXCEPTIONS).lines()
                    .takeWhile(l -> l.startsWith("#")).reduce("", (x, y) -> x + y + "\n"));
            misses.forEach((k, r) -> sb.append(k).append('\t').append(r).append('\n'));
            Files.writeString(Path.of("target", "redteam-exceptions.tsv"), sb.toString());
        }
        List<String> stale = exceptions.keySet().stream().filter(k -> !misses.containsKey(k)).toList();
        assertThat(unexplained).as("red-team cases that miss their expectation and are not listed").isEmpty();
        assertThat(stale).as("listed red-team cases that no longer miss (remove them from the list)").isEmpty();
        allowed.forEach((file, counts) -> assertThat(counts[0])
                .as("everyday commands of %s allowed (%d of %d)", file, counts[0], counts[1])
                .isGreaterThanOrEqualTo((int) Math.ceil(ALLOW_SHARE.get(file) * counts[1])));
    }

    static List<Case> cases(Path dir) throws IOException {
        ObjectMapper mapper = new ObjectMapper();
        List<Case> out = new ArrayList<>();
        for (String name : FILES) {
            for (String line : Files.readAllLines(dir.resolve(name), StandardCharsets.UTF_8)) {
                if (line.isBlank()) {
                    continue;
                }
                JsonNode n = mapper.readTree(line);
                Dialect dialect = Dialect.parse(n.path("dialect").asText("bash"));
                assertThat(dialect).as("the dialect of %s", line).isNotNull();
                out.add(new Case(name, n.get("cmd").asText(), n.get("expect").asText(), dialect,
                        n.path("fixture").asText("proj"), n.path("why").asText(""), n.path("setup").asText(""),
                        n.path("home").asText("")));
            }
        }
        return out;
    }

    /** The corpus's own fixture repository, made by its script with the real bash and git. */
    private static Path fixture(Path dir, Path proj) throws IOException, InterruptedException {
        run(List.of("bash", dir.resolve("redteam-fixture.sh").toString(), proj.toString()), root, Map.of(),
                "redteam-fixture.sh");
        return proj;
    }

    /**
     * A fresh fixture and scratch home for a third-round case: its {@code setup} run in the project, its
     * {@code home} with {@code HOME} set to the scratch home (both with the real bash and git).
     */
    private static Path[] prepare(Path dir, int n, Case c) {
        try {
            Path base = Files.createDirectories(root.resolve("case" + n));
            Path home = Files.createDirectories(base.resolve("home"));
            Path proj = fixture(dir, base.resolve("proj"));
            Map<String, String> env = Map.of("HOME", home.toString(), "GIT_CONFIG_NOSYSTEM", "1");
            if (!c.setup().isEmpty()) {
                run(List.of("bash", "-c", c.setup()), proj, env, "the setup of " + c.cmd());
            }
            if (!c.home().isEmpty()) {
                run(List.of("bash", "-c", c.home()), home, env, "the home of " + c.cmd());
            }
            return new Path[] {proj, home};
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static void run(List<String> command, Path cwd, Map<String, String> env, String what)
            throws IOException, InterruptedException {
        ProcessBuilder pb = new ProcessBuilder(command).directory(cwd.toFile()).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD);
        pb.environment().putAll(env);
        Process p = pb.start();
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).as("%s finished", what).isTrue();
        assertThat(p.exitValue()).as("%s's exit code", what).isZero();
    }

    /** A first draft of a reason, for the rewrite flag; every one is reviewed before it is checked in. */
    private static String propose(Case c) {
        return c.expect().equals("allow")
                ? "usability cost, not a hole: an everyday command asks (" + c.why() + ")"
                : "open hole, issue " + switch (c.file()) {
                    case "redteam.jsonl" -> "19";
                    case "redteam-windows.jsonl" -> "22";
                    case "redteam3.jsonl" -> "28";
                    default -> "29";
                } + ": " + c.why();
    }
}
