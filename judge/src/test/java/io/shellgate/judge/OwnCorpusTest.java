package io.shellgate.judge;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/** Runs every case of {@code src/test/resources/corpus}: the command itself is the test's name. */
class OwnCorpusTest {

    private static Path root;
    private static Sandbox sandbox;
    private static final Judge JUDGE = Judges.defaults();

    @BeforeAll
    static void setUp() throws Exception {
        root = Files.createTempDirectory("shellgate-corpus");
        sandbox = new Sandbox(root);
    }

    @AfterAll
    static void tearDown() throws Exception {
        try (Stream<Path> walk = Files.walk(root)) {
            walk.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }

    @TestFactory
    Stream<DynamicTest> everyCaseGetsItsTier() {
        return CorpusCase.all().stream().map(c -> DynamicTest.dynamicTest(c.file() + ":" + c.line() + " " + c, () -> {
            Verdict v = JUDGE.judge(sandbox.request(c.command(), c.dialect()));
            assertThat(v.tier()).as("%s:%d %s → %s", c.file(), c.line(), c, v.reasons()).isEqualTo(c.tier());
            if (c.rule() != null) {
                assertThat(v.reasons()).as("%s:%d %s → %s", c.file(), c.line(), c, v.reasons())
                        .anySatisfy(r -> {
                            assertThat(r.rule()).isEqualTo(c.rule());
                            assertThat(r.tier()).isEqualTo(c.tier());
                        });
            }
        }));
    }

    @TestFactory
    Stream<DynamicTest> aCaseJudgedAgainGetsTheSameVerdict() {
        Judge judge = Judges.defaults();
        return CorpusCase.all().stream().map(c -> DynamicTest.dynamicTest(c.file() + ":" + c.line() + " " + c, () -> {
            Verdict first = judge.judge(sandbox.request(c.command(), c.dialect()));
            assertThat(judge.judge(sandbox.request(c.command(), c.dialect()))).isEqualTo(first);
        }));
    }
}
