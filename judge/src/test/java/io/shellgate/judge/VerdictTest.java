package io.shellgate.judge;

import static org.assertj.core.api.Assertions.assertThat;

import io.shellgate.rules.Tier;
import java.util.List;
import org.junit.jupiter.api.Test;

class VerdictTest {

    private static Reason reason(String rule, Tier tier) {
        return new Reason(rule, tier, rule + " says " + tier, Span.NONE);
    }

    @Test
    void bySeverityPutsTheStrictestFirstAndKeepsTheOrderWithinATier() {
        Verdict v = new Verdict(Tier.DENY, List.of(reason("a", Tier.ALLOW), reason("b", Tier.ASK), reason("c", Tier.DENY),
                reason("d", Tier.ALLOW), reason("e", Tier.DENY), reason("f", Tier.ASK)), List.of());
        assertThat(v.bySeverity()).extracting(Reason::rule).containsExactly("c", "e", "b", "f", "a", "d");
        assertThat(v.deciding()).extracting(Reason::rule).containsExactly("c", "e");
        assertThat(v.primary().rule()).isEqualTo("c");
        assertThat(new Verdict(Tier.ALLOW, List.of(), List.of()).bySeverity()).isEmpty();
    }
}
