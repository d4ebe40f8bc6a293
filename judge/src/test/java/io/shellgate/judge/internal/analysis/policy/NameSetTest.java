package io.shellgate.judge.internal.analysis.policy;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class NameSetTest {

    @Test
    void namesMatchExactlyOrByGlob() {
        NameSet set = new NameSet(List.of("python3", "python3.*", "LC_*", "GIT_?", "pip[!x]"));
        assertThat(set.contains("python3")).isTrue();
        assertThat(set.contains("python3.12")).isTrue();
        assertThat(set.contains("python")).isFalse();
        assertThat(set.contains("LC_ALL")).isTrue();
        assertThat(set.contains("LANG")).isFalse();
        assertThat(set.contains("GIT_X")).isTrue();
        assertThat(set.contains("GIT_XY")).isFalse();
        assertThat(set.contains("pip3")).isTrue();
        assertThat(set.contains("pipx")).isFalse();
    }

    @Test
    void aNameHasNoSegmentsSoAStarTakesASlashToo() {
        NameSet set = new NameSet(List.of("x*", "y[^/]"));
        assertThat(set.contains("x/y")).isTrue();
        // a class the policy wrote keeps its meaning
        assertThat(set.contains("y/")).isFalse();
        assertThat(set.contains("yz")).isTrue();
    }
}
