package io.shellgate.judge.internal.analysis;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

class ShellStateTest {

    @Test
    void anArithmeticAssignmentNamesItsVariableWithoutTheOperator() {
        assertThat(ShellState.withoutOperator("PATH+")).isEqualTo("PATH");
        assertThat(ShellState.withoutOperator("x<<")).isEqualTo("x");
        assertThat(ShellState.withoutOperator("a[1]|")).isEqualTo("a[1]");
        assertThat(ShellState.withoutOperator("x")).isEqualTo("x");
        assertThat(ShellState.withoutOperator("+-*/")).isEmpty();
    }

    /**
     * A run of operator characters before a letter: the regular expression this replaced went back
     * over the run from every start, about 9 s for the 64 KiB a command line may have (far past
     * the judgement's 250 ms budget, which cannot stop one) and minutes for this one. The timeout
     * only stops such a hang; one pass takes microseconds.
     */
    @Test
    @Timeout(60)
    void aLongRunOfOperatorsIsReadInOnePass() {
        String left = "+".repeat(300_000) + "x";
        assertThat(ShellState.withoutOperator(left)).isEqualTo(left);
    }
}
