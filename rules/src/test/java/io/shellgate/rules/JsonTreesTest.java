package io.shellgate.rules;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import org.junit.jupiter.api.Test;

/** The streaming reader and writer give the trees and text an ObjectMapper would. */
class JsonTreesTest {

    private static final ObjectMapper MAPPER = new ObjectMapper();

    @Test
    void readsAndWritesWhatAnObjectMapperDoes() throws Exception {
        String text = "{\"v\":1,\"s\":\"a\\\"b\\\\c\\n\\u0001é\",\"big\":12345678901234,\"huge\":123456789012345678901234567890,"
                + "\"f\":1.5,\"t\":true,\"n\":null,\"a\":[1,[2,{}],\"x\"],\"o\":{\"k\":false}}";
        assertThat(JsonTrees.parse(text)).isEqualTo(MAPPER.readTree(text));
        assertThat(JsonTrees.write(JsonTrees.parse(text))).isEqualTo(MAPPER.readTree(text).toString());
        assertThat(JsonTrees.parse("")).isNull();
        // the last of a repeated key counts, as with an ObjectMapper
        assertThat(JsonTrees.parse("{\"k\":1,\"k\":2}").get("k").asInt()).isEqualTo(2);
    }

    @Test
    void badInputIsAnExceptionNotATree() {
        for (String bad : new String[] {"{", "[1,", "{\"a\":}", "1 2", "{} {}", "nul", "{\"a\":1,}"}) {
            assertThatThrownBy(() -> JsonTrees.parse(bad)).as(bad).isInstanceOf(IOException.class);
        }
        // hostile nesting hits the parser's limit, not the stack
        assertThatThrownBy(() -> JsonTrees.parse("[".repeat(100_000))).isInstanceOf(IOException.class);
    }
}
