package io.shellgate.judge;

import static org.assertj.core.api.Assertions.assertThat;

import io.shellgate.rules.Tier;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The shell language's own code paths: arithmetic, subscripts, nested expansions, builtins. */
class ShellLanguageTest {

    private static final Judge JUDGE = Judges.defaults();

    private static Verdict judge(String line) {
        return JUDGE.judge(new JudgeRequest(line, Dialect.BASH, Path.of("/"), Map.of("HOME", "/home/user",
                "PATH", "/usr/local/bin:/usr/bin:/bin")));
    }

    /**
     * Nested defaults used to be expanded once for the judgement and again for the value, at every
     * level: 24 levels took 10 s. Now each operand is expanded once. The timeout only stops a hang.
     */
    @Test
    @Timeout(60)
    void nestedDefaultsAreExpandedOnceEach() {
        String line = "x=" + "${y:-".repeat(200) + "$(touch /tmp/pwn)" + "}".repeat(200);
        Verdict v = judge(line);
        assertThat(v.tier()).isEqualTo(Tier.ASK);
        assertThat(v.reasons()).anySatisfy(r -> assertThat(r.message()).contains("touch"));
    }

    /** A value doubled at every step stops at the work budget, with an ask, whatever the machine's speed. */
    @Test
    @Timeout(60)
    void aValueThatDoublesRunsOutOfTheWorkBudget() {
        Verdict v = judge("a=xxxxxxxx; " + "a=$a$a; ".repeat(40) + "echo ok");
        assertThat(v.tier()).isEqualTo(Tier.ASK);
        assertThat(v.reasons()).anySatisfy(r -> assertThat(r.rule()).isEqualTo("work-budget"));
    }

    /** A long run of operators in arithmetic is read in one pass (a backtracking expression took seconds). */
    @Test
    @Timeout(60)
    void aLongRunOfOperatorsInArithmeticIsReadInOnePass() {
        assertThat(judge("let '" + "+".repeat(30_000) + "x'").tier()).isEqualTo(Tier.ALLOW);
        assertThat(judge("let 'IFS+=1'").tier()).isEqualTo(Tier.ASK);
    }
}
