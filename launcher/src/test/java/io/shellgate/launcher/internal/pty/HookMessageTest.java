package io.shellgate.launcher.internal.pty;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The hook's messages as the integrations write them. */
class HookMessageTest {

    private static HookMessage parse(String wire) {
        return HookMessage.parse(wire.getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void aCheckCarriesTheExactLineTheDirectoryAndTheVariables() {
        assertThat(parse("check\u00007\u0000for i in 1 2\ndo echo $i; done\u0000/home/me/p\u0000PATH=/usr/bin:/bin\u0000X=a=b\u0000"))
                .isEqualTo(new HookMessage.Check(7, "for i in 1 2\ndo echo $i; done", Path.of("/home/me/p"),
                        Map.of("PATH", "/usr/bin:/bin", "X", "a=b")));
    }

    @Test
    void theFirstValueOfAVariableCounts() {
        HookMessage m = parse("check\u00001\u0000ls\u0000/\u0000A=1\u0000A=2\u0000");
        assertThat(((HookMessage.Check) m).env()).containsExactly(Map.entry("A", "1"));
    }

    @Test
    void promptsAndShownMarks() {
        assertThat(parse("prompt\u0000")).isEqualTo(new HookMessage.Prompt());
        assertThat(parse("shown\u00003\u0000")).isEqualTo(new HookMessage.Shown(3));
    }

    @Test
    void messagesEndWithARecordSeparatorFieldSoThatTwoInOneReadAreTwo() {
        byte[] two = "prompt\u0000\u001e\u0000check\u00001\u0000\u001e\u0000/\u0000\u001e\u0000".getBytes(StandardCharsets.UTF_8);
        int first = HookMessage.end(two);
        assertThat(HookMessage.parse(java.util.Arrays.copyOf(two, first))).isEqualTo(new HookMessage.Prompt());
        byte[] rest = java.util.Arrays.copyOfRange(two, first, two.length);
        // a line that is just the separator cuts the message short: malformed, so refused
        assertThat(HookMessage.parse(java.util.Arrays.copyOf(rest, HookMessage.end(rest))))
                .isInstanceOf(HookMessage.Malformed.class);
        assertThat(HookMessage.end("check\u00001\u0000ls".getBytes(StandardCharsets.UTF_8))).isEqualTo(-1);
    }

    @Test
    void anythingElseIsMalformed() {
        assertThat(parse("")).isInstanceOf(HookMessage.Malformed.class);
        assertThat(parse("run\u0000")).isInstanceOf(HookMessage.Malformed.class);
        assertThat(parse("check\u0000x\u0000ls\u0000/\u0000")).isInstanceOf(HookMessage.Malformed.class);
        assertThat(parse("check\u00001\u0000ls\u0000relative\u0000")).isInstanceOf(HookMessage.Malformed.class);
    }
}
