package io.shellgate.it.oracle;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import io.shellgate.judge.Judges;
import io.shellgate.rules.Policy;
import io.shellgate.rules.PolicyLoader;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The execution oracle on the built-in policy (issue 19): every line built from the policy's
 * grammars, the policy's examples, the judge's corpus and the red team's everyday commands that the
 * judge allows runs for real in a sandbox, and must not write, run an unjudged program, open or
 * print a secret, open a socket or change the system. Findings known today are listed in
 * {@code oracle-exceptions.tsv}, which may only shrink. The report goes to {@code target/oracle/};
 * {@code -Dshellgate.rewriteExceptions=true} writes a new list there for review. See docs/oracle.md.
 */
class ExecutionOracleTest {

    /** The seed of the generator's words; the list of exceptions holds for this seed. */
    static final long SEED = Long.getLong("oracle.seed", 19);
    /** {@code -Doracle.deep=true}: a plain and a hostile line for every option, about a third more lines. */
    static final boolean DEEP = Boolean.getBoolean("oracle.deep");
    private static final Path WORK = Path.of("target", "oracle");

    @Test
    void noAllowedLineWritesRunsAnUnjudgedProgramReadsASecretOrReachesTheNetworkUnlessListed() throws Exception {
        Path base = Files.createTempDirectory("shellgate-oracle");
        try {
            World world = World.create(base);
            Policy policy = PolicyLoader.defaults();
            long t0 = System.nanoTime();
            List<Candidate> candidates = candidates(policy, world);
            long generate = (System.nanoTime() - t0) / 1_000_000;
            Oracle.Run run = new Oracle(world, Judges.defaults(), policy.programs().shells().keySet(), WORK,
                    SandboxRun.WORKERS).run(candidates);
            Report report = new Report(world);
            report.write(run, WORK, generate);
            System.out.println(report.summary(run, generate));

            Set<String> builtins = new HashSet<>();
            policy.programs().builtins().values().forEach(builtins::addAll);
            Exceptions exceptions = new Exceptions(resource("/oracle-exceptions.tsv"), builtins);
            Exceptions.Check check = exceptions.check(run, report);
            if (Boolean.getBoolean("shellgate.rewriteExceptions")) {
                Files.writeString(WORK.resolve("oracle-exceptions.tsv"), exceptions.rewrite(run, report));
            }
            assertThat(run.results()).as("allowed lines that ran").hasSizeGreaterThan(1000);
            assertThat(check.unexplained()).as("allowed lines with findings that oracle-exceptions.tsv does not list"
                    + " (see target/oracle/findings.jsonl)").isEmpty();
            assertThat(check.stale()).as("lines oracle-exceptions.tsv lists that have no findings any more"
                    + " (remove them from the list)").isEmpty();
        } finally {
            Oracle.delete(base);
        }
    }

    /**
     * The hostile-fixture mode (issue 28): the lines of git, find, grep, Maven, pip and the file
     * readers, the red team's third corpus and each fixture's own lines, judged and run in each world
     * of {@link HostileFixtures} (a decoy {@code .git}, a gitfile pointing elsewhere, a partial clone
     * with an {@code ext::} promisor, global git configuration in the home and under
     * {@code XDG_CONFIG_HOME}, system configuration through {@code GIT_CONFIG_SYSTEM}, a relocated
     * {@code core.attributesFile}, committed links to secrets with {@code ~/.mavenrc}, Claude Code's
     * envelope, in its bash and its zsh form, and Codex's, each sourcing a rewritten shell snapshot). The judge sees
     * the hostile files, so it must ask where they would act; a line it allows must run clean there.
     * Findings are listed in {@code oracle-exceptions.tsv} under {@code FIXTURE/bash}.
     */
    @Test
    void noAllowedLineSetsOffAHostileFixtureUnlessListed() throws Exception {
        Path base = Files.createTempDirectory("shellgate-oracle-hostile");
        try {
            Policy policy = PolicyLoader.defaults();
            long t0 = System.nanoTime();
            List<Candidate> all = candidates(policy, World.create(base.resolve("plain")));
            Path shared = sharedCorpus();
            if (shared != null && Files.isRegularFile(shared.resolve("redteam3.jsonl"))) {
                all.addAll(CorpusLines.redTeam(shared.resolve("redteam3.jsonl")));
            } else if (System.getenv("CI") != null) {
                fail("the red-team corpus (../shared/corpus/redteam3.jsonl) is missing, and CI must run its allow cases");
            }
            List<Candidate> common = HostileFixtures.select(all);
            long generate = (System.nanoTime() - t0) / 1_000_000;
            Set<String> builtins = new HashSet<>();
            policy.programs().builtins().values().forEach(builtins::addAll);
            String list = resource("/oracle-exceptions.tsv");
            List<String> unexplained = new ArrayList<>();
            List<String> stale = new ArrayList<>();
            StringBuilder summary = new StringBuilder();
            int ran = 0;
            List<String> unarmed = new ArrayList<>();
            for (HostileFixtures.Fixture f : HostileFixtures.all()) {
                World world = World.create(base.resolve(f.name()));
                f.plant(world);
                Path work = WORK.resolveSibling("oracle-hostile").resolve(f.name());
                Oracle.Run run = new Oracle(world, Judges.defaults(), policy.programs().shells().keySet(), work,
                        SandboxRun.WORKERS, f.agent()).run(HostileFixtures.lines(f, world, common));
                Report report = new Report(world);
                report.write(run, work, generate);
                Exceptions exceptions = new Exceptions(list, builtins, f.name());
                Exceptions.Check check = exceptions.check(run, report);
                if (Boolean.getBoolean("shellgate.rewriteExceptions")) {
                    Files.writeString(work.resolve("oracle-exceptions.tsv"), exceptions.rewrite(run, report));
                }
                // the fixture's own lines run whatever the verdict: the trap must go off, or the world proves nothing
                Oracle.Run armed = new Oracle(world, Judges.defaults(), policy.programs().shells().keySet(),
                        work.resolve("armed"), SandboxRun.WORKERS, f.agent()).run(HostileFixtures.lines(f, world, List.of()), true);
                new Report(world).write(armed, work.resolve("armed"), 0);
                Set<String> fired = new HashSet<>();
                armed.withFindings().forEach(r -> fired.add(f.trap(r.candidate())));
                for (String trap : f.traps()) {
                    if (!fired.contains(trap)) {
                        unarmed.add(f.name() + (trap.equals(f.name()) ? "" : " (" + trap + ")"));
                    }
                }
                check.unexplained().forEach(u -> unexplained.add(f.name() + ": " + u));
                check.stale().forEach(u -> stale.add(f.name() + ": " + u));
                ran += run.results().size();
                summary.append("%s: %d lines judged, %d allowed and run, %d with findings; judging %d ms, running %d ms (%.0f s of processor time)%n"
                        .formatted(f.name(), run.judged().size(), run.results().size(), run.withFindings().size(),
                                run.judgeMillis(), run.runMillis(), run.cpuSeconds()));
                summary.append("  its own %d lines run unjudged: %d set off the trap, %d of them allowed%n".formatted(
                        armed.results().size(), armed.withFindings().size(), armed.withFindings().stream().filter(r ->
                                run.results().stream().anyMatch(x -> x.candidate().line().equals(r.candidate().line()))).count()));
            }
            summary.append("generating %d common lines: %d ms%n".formatted(common.size(), generate));
            Files.writeString(WORK.resolveSibling("oracle-hostile").resolve("summary.txt"), summary);
            System.out.println(summary);
            assertThat(ran).as("allowed lines that ran in the hostile worlds").isGreaterThan(100);
            assertThat(unarmed).as("hostile worlds whose own lines, run whatever the judge says, set off nothing"
                    + " (a fixture that no longer works)").isEmpty();
            assertThat(unexplained).as("allowed lines with findings in a hostile world that oracle-exceptions.tsv does not"
                    + " list (see target/oracle-hostile/FIXTURE/findings.jsonl)").isEmpty();
            assertThat(stale).as("lines oracle-exceptions.tsv lists for a hostile world that have no findings any more"
                    + " (remove them from the list)").isEmpty();
        } finally {
            Oracle.delete(base);
        }
    }

    /** Every candidate line: the policy's grammars, its examples, the judge's corpus, the red team's allow cases. */
    static List<Candidate> candidates(Policy policy, World world) throws IOException {
        List<Candidate> out = new ArrayList<>(
                new PolicyLines(policy, new HelpOptions(world.proj, world.environment()), SEED, DEEP).generate(id -> true));
        out.addAll(CorpusLines.examples(policy));
        out.addAll(CorpusLines.ownCorpus(Path.of("..", "judge", "src", "test", "resources", "corpus")));
        Path shared = sharedCorpus();
        if (shared != null && Files.isRegularFile(shared.resolve("redteam.jsonl"))) {
            out.addAll(CorpusLines.redTeam(shared.resolve("redteam.jsonl")));
        } else if (System.getenv("CI") != null) {
            fail("the red-team corpus (../shared/corpus/redteam.jsonl) is missing, and CI must run its allow cases");
        }
        return out;
    }

    /** {@code shared/corpus} in this directory or one above it, or {@code -Dshellgate.corpus}. */
    static Path sharedCorpus() {
        String explicit = System.getProperty("shellgate.corpus");
        if (explicit != null) {
            return Path.of(explicit);
        }
        for (Path d = Path.of("").toAbsolutePath(); d != null; d = d.getParent()) {
            if (Files.isDirectory(d.resolve("shared").resolve("corpus"))) {
                return d.resolve("shared").resolve("corpus");
            }
        }
        return null;
    }

    static String resource(String name) throws IOException {
        try (InputStream in = ExecutionOracleTest.class.getResourceAsStream(name)) {
            assertThat(in).as("the resource %s", name).isNotNull();
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }
}
