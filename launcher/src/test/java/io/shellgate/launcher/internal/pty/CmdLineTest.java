package io.shellgate.launcher.internal.pty;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The line the proxy keeps for cmd: what is echoed and what is handed over at Enter. */
class CmdLineTest {

    private final StringBuilder echoed = new StringBuilder();
    private final List<String> lines = new ArrayList<>();
    private final CmdLine line = new CmdLine(echoed::append, lines::add);

    private void type(String keys) {
        byte[] b = keys.getBytes(StandardCharsets.UTF_8);
        line.feed(b, b.length);
    }

    @Test
    void echoesWhatIsTypedAndHandsTheLineOverAtEnter() {
        type("dir /b\r");
        assertThat(echoed).hasToString("dir /b");
        assertThat(lines).containsExactly("dir /b");
        assertThat(line.text()).isEmpty();
    }

    @Test
    void backspaceAndCtrlUErase() {
        type("del x\u007fy");
        assertThat(line.text()).isEqualTo("del y");
        type("\u0015echo ok\r");
        assertThat(lines).containsExactly("echo ok");
        assertThat(echoed.toString()).contains("\b \b");
    }

    @Test
    void arrowAndFunctionKeysAreIgnored() {
        type("ec\u001b[Aho\u001bOP\u001b[15~ hi\r");
        assertThat(lines).containsExactly("echo hi");
    }

    @Test
    void keepsCharactersSplitAcrossReads() {
        byte[] b = "type café€.txt\r".getBytes(StandardCharsets.UTF_8);
        for (byte x : b) {
            line.feed(new byte[] {x}, 1);
        }
        assertThat(lines).containsExactly("type café€.txt");
    }

    @Test
    void ctrlCDropsTheLine() {
        type("format c:\u0003");
        assertThat(lines).containsExactly("");
        assertThat(line.text()).isEmpty();
    }
}
