package io.shellgate.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class JsonTest {

    @Test
    void whatItWritesItReadsBackEveryCharacterIncluded() {
        String awkward = "a\"b\\c\nd\te\u0001f\u00e9\ud83d\ude00 \ud800 end";
        Map<String, Object> value = new LinkedHashMap<>();
        value.put("s", awkward);
        value.put("n", 12L);
        value.put("b", true);
        value.put("z", null);
        value.put("l", List.of("x", 1L));
        String line = Json.write(new StringBuilder(), value).toString();
        assertThat(line).doesNotContain("\n").contains("\\ud800");
        Map<String, Object> back = Json.object(line);
        assertThat(back).isEqualTo(value);
    }

    @Test
    void malformedOrTooDeepInputIsAnErrorNeverAValue() {
        for (String bad : List.of("", "[]", "{", "{\"a\":}", "{\"a\":01}", "{\"a\":NaN}", "{\"a\":\"\\u12\"}", "{\"a\":\"\\x\"}",
                "{\"a\":1}{}", "{\"a\":" + "[".repeat(100) + "]".repeat(100) + "}")) {
            assertThatThrownBy(() -> Json.object(bad)).as(bad).isInstanceOf(IllegalArgumentException.class);
        }
    }

    @Test
    void readsNumbersAsTheProtocolUsesThem() {
        assertThat(Json.object("{\"a\":-3,\"b\":2.5,\"c\":1e3}")).containsEntry("a", -3L).containsEntry("b", 2.5).containsEntry("c", 1000.0);
    }
}
