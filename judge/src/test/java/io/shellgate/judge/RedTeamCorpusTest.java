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
 * Runs the red team's corpora ({@code redteam.jsonl}, {@code redteam-windows.jsonl} in
 * {@code ../shared/corpus}): a {@code not_allow} case must not be allowed, a {@code deny} case must
 * be denied, and a share of the {@code allow} cases of each file must be allowed (the goal is 90 %). Every case
 * that misses its expectation must be listed, with a reason, in {@code redteam-exceptions.tsv}; an
 * entry that no longer misses fails the test too, so the list only shrinks as holes are closed.
 *
 * <p>Cases with {@code "fixture": "proj"} are judged in a repository made by the corpus's own
 * {@code redteam-fixture.sh} (real bash and git), {@code "checkout"} ones in this checkout. Every
 * case sees {@code GITHUB_TOKEN} and {@code AWS_SECRET_ACCESS_KEY} set and {@code USERPROFILE} as
 * the home directory, as the corpus README says. Rewrite the list with
 * {@code -Dshellgate.rewriteExceptions=true}: the new file goes to {@code target/} for review.
 */
class RedTeamCorpusTest {

    private static final String EXCEPTIONS = "/redteam-exceptions.tsv";
    /** The share of each file's everyday commands that must be allowed; the goal is 0.90 for both. */
    private static final Map<String, Double> ALLOW_SHARE = Map.of("redteam.jsonl", 0.90, "redteam-windows.jsonl", 0.90);
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

    record Case(String file, String cmd, String expect, Dialect dialect, String fixture, String why) {

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
        Path proj = fixture(dir);
        Path checkout = Path.of("").toAbsolutePath().getParent();
        Map<String, String> env = new HashMap<>(sandbox.env);
        env.put("GITHUB_TOKEN", "ghp_redteam");
        env.put("AWS_SECRET_ACCESS_KEY", "redteam");
        env.put("USERPROFILE", sandbox.home.toString());

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
            Path cwd = c.fixture().equals("checkout") ? checkout : proj;
            Verdict v = JUDGE.judge(new JudgeRequest(c.cmd(), c.dialect(), cwd, env));
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
        for (String name : List.of("redteam.jsonl", "redteam-windows.jsonl")) {
            for (String line : Files.readAllLines(dir.resolve(name), StandardCharsets.UTF_8)) {
                if (line.isBlank()) {
                    continue;
                }
                JsonNode n = mapper.readTree(line);
                Dialect dialect = Dialect.parse(n.path("dialect").asText("bash"));
                assertThat(dialect).as("the dialect of %s", line).isNotNull();
                out.add(new Case(name, n.get("cmd").asText(), n.get("expect").asText(), dialect,
                        n.path("fixture").asText("proj"), n.path("why").asText("")));
            }
        }
        return out;
    }

    /** The corpus's own fixture repository, made by its script with the real bash and git. */
    private static Path fixture(Path dir) throws IOException, InterruptedException {
        Path proj = root.resolve("proj");
        Process p = new ProcessBuilder("bash", dir.resolve("redteam-fixture.sh").toString(), proj.toString())
                .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).as("redteam-fixture.sh finished").isTrue();
        assertThat(p.exitValue()).as("redteam-fixture.sh's exit code").isZero();
        return proj;
    }

    /** A first draft of a reason, for the rewrite flag; every one is reviewed before it is checked in. */
    private static String propose(Case c) {
        return c.expect().equals("allow")
                ? "usability cost, not a hole: an everyday command asks (" + c.why() + ")"
                : "open hole, issue " + (c.file().equals("redteam.jsonl") ? "19" : "22") + ": " + c.why();
    }
}
