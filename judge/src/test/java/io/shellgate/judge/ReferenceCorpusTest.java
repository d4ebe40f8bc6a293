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
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Runs the other gates' corpora in {@code ../shared/corpus}. Every case another gate denies or
 * asks about and shellgate allows must be listed, with a reason, in
 * {@code reference-exceptions.tsv}; an exception that no longer applies fails the test too.
 *
 * <p>The corpus folder is required when the environment variable {@code CI} is set; elsewhere the
 * test is skipped (with that reason) when the folder is absent. Rewrite the exceptions with
 * {@code -Dshellgate.rewriteExceptions=true}: the new file goes to {@code target/} for review.
 */
class ReferenceCorpusTest {

    private static final String EXCEPTIONS = "/reference-exceptions.tsv";
    private static Path root;
    private static Sandbox sandbox;
    private static final Judge JUDGE = Judges.defaults();

    @BeforeAll
    static void setUp() throws IOException {
        root = Files.createTempDirectory("shellgate-reference");
        sandbox = new Sandbox(root);
    }

    @AfterAll
    static void tearDown() throws IOException {
        try (Stream<Path> walk = Files.walk(root)) {
            walk.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }

    static Path corpusDir() {
        String explicit = System.getProperty("shellgate.corpus");
        if (explicit != null) {
            return Path.of(explicit);
        }
        for (Path d = Path.of("").toAbsolutePath(); d != null; d = d.getParent()) {
            Path candidate = d.resolve("shared").resolve("corpus");
            if (Files.isDirectory(candidate)) {
                return candidate;
            }
        }
        return null;
    }

    record Case(String file, String cmd, String expect, String dialect) {}

    static List<Case> cases(Path dir) throws IOException {
        ObjectMapper mapper = new ObjectMapper();
        List<Case> out = new ArrayList<>();
        try (Stream<Path> files = Files.list(dir)) {
            // the red team's files were written against shellgate itself: RedTeamCorpusTest runs them
            for (Path f : files.filter(p -> p.toString().endsWith(".jsonl")
                    && !p.getFileName().toString().startsWith("redteam")).sorted().toList()) {
                for (String line : Files.readAllLines(f, StandardCharsets.UTF_8)) {
                    if (line.isBlank()) {
                        continue;
                    }
                    JsonNode n = mapper.readTree(line);
                    out.add(new Case(f.getFileName().toString(), n.get("cmd").asText(), n.get("expect").asText(),
                            n.has("dialect") ? n.get("dialect").asText() : "bash"));
                }
            }
        }
        return out;
    }

    static String escape(String cmd) {
        return cmd.replace("\n", "⏎").replace("\r", "␍").replace("\t", "⇥");
    }

    @Test
    void everyCaseAnotherGateStopsIsStoppedOrAnExplainedException() throws IOException {
        Path dir = corpusDir();
        if (dir == null) {
            if (System.getenv("CI") != null) {
                fail("the reference corpora (../shared/corpus) are missing, and CI must run them");
            }
            Assumptions.abort("the reference corpora (../shared/corpus) are not on this machine");
        }
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
        Map<String, String> holes = new TreeMap<>();
        Map<String, String> proposed = new TreeMap<>();
        for (Case c : cases(dir)) {
            Dialect dialect = Dialect.parse(c.dialect());
            Verdict v = JUDGE.judge(new JudgeRequest(c.cmd(), dialect == null ? Dialect.BASH : dialect, sandbox.project, sandbox.env));
            boolean stopped = c.expect().equals("deny") || c.expect().equals("confirm");
            if (stopped && v.tier() == Tier.ALLOW) {
                String key = c.file() + "\t" + escape(c.cmd());
                holes.put(key, c.expect());
                proposed.put(key, exceptions.getOrDefault(key, propose(c, v)));
                if (!exceptions.containsKey(key)) {
                    unexplained.add(c.file() + ": " + c.expect() + " there, allow here: " + escape(c.cmd()) + "   " + v.reasons());
                }
            }
        }
        if (Boolean.getBoolean("shellgate.rewriteExceptions")) {
            StringBuilder sb = new StringBuilder(CorpusCase.resource(EXCEPTIONS).lines()
                    .takeWhile(l -> l.startsWith("#")).reduce("", (x, y) -> x + y + "\n"));
            proposed.forEach((k, r) -> sb.append(k).append('\t').append(r).append('\n'));
            Files.writeString(Path.of("target", "reference-exceptions.tsv"), sb.toString());
        }
        List<String> stale = exceptions.keySet().stream().filter(k -> !holes.containsKey(k)).toList();
        assertThat(unexplained).as("cases another gate stops and shellgate allows, with no exception listed").isEmpty();
        assertThat(stale).as("exceptions that no longer apply (shellgate now stops them, or the case is gone)").isEmpty();
    }

    /** A first draft of a reason, for the rewrite flag; every one is reviewed before it is checked in. */
    private static String propose(Case c, Verdict v) {
        String rules = String.join(", ", v.reasons().stream().map(Reason::rule).distinct().toList());
        if (c.file().startsWith("lshell")) {
            return "lshell's verdict comes from its test configuration (only ls, echo and ll; no shell syntax); every part is read-only: " + rules;
        }
        return "every part is read-only with permitted options and reads no secret: " + rules;
    }
}
