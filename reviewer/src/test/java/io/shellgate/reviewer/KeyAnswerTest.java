package io.shellgate.reviewer;

import static org.assertj.core.api.Assertions.assertThat;

import io.shellgate.reviewer.model.Answer;
import io.shellgate.reviewer.model.KeyAnswer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Only one deliberate key, read on its own once the question was up for a moment, answers. */
class KeyAnswerTest {

    private static final Duration READ = Duration.ofSeconds(2);

    private static KeyAnswer of(String keys, Duration since) {
        byte[] bytes = keys.getBytes(StandardCharsets.UTF_8);
        return KeyAnswer.of(bytes, bytes.length, since);
    }

    @ParameterizedTest
    @CsvSource({"y,ONCE", "Y,ONCE", "s,SESSION", "p,PROJECT", "n,REFUSE", "r,REFUSE"})
    void anAnswerKeyAnswers(String key, Answer expected) {
        assertThat(of(key, READ)).isEqualTo(new KeyAnswer(expected, null));
    }

    @Test
    void anythingElseRefusesAndSaysWhy() {
        Map<String, String> cases = Map.of(
                "o", "'o' is not an answer (y, s, p or n)",
                "yes", "3 keys arrived at once (a paste, a program typing, or keys typed ahead), which is not an answer",
                "echo hello\r", "11 keys arrived at once",
                "\u001b[A", "3 keys arrived at once",
                "\u0007", "Ctrl-G is not an answer");
        cases.forEach((keys, why) -> {
            KeyAnswer a = of(keys, READ);
            assertThat(a.answer()).as(keys).isEqualTo(Answer.REFUSE);
            assertThat(a.why()).as(keys).startsWith(why);
            assertThat(a.label()).startsWith("refused: ");
        });
    }

    @ParameterizedTest
    @CsvSource({"y", "s", "p"})
    void aKeyWithinTheSettleTimeIsTypedAheadAndRefused(String key) {
        KeyAnswer a = of(key, KeyAnswer.SETTLE.minusMillis(1));
        assertThat(a.answer()).isEqualTo(Answer.REFUSE);
        assertThat(a.why()).contains("within 300 ms of the question");
        assertThat(of(key, KeyAnswer.SETTLE).answer()).isNotEqualTo(Answer.REFUSE);
    }
}
