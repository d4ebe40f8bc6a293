package io.shellgate.launcher.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The plugin files {@code shellgate setup} writes are put together by the build: each agent's part
 * (src/main/js) with the relay they share in place of its include line. The relay has one source, and
 * every file an agent loads holds it exactly once.
 */
class PluginFileTest {

    private static final Path SOURCES = Path.of("src/main/js");
    private static final String INCLUDE = "//@include shellgate-relay.js\n";

    /** The relay as the files hold it: its source without the notes for the source's reader. */
    private static String relay() throws IOException {
        return Files.readString(SOURCES.resolve("shellgate-relay.js"), StandardCharsets.UTF_8).lines()
                .filter(line -> !line.startsWith("//@"))
                .map(line -> line + "\n")
                .collect(Collectors.joining());
    }

    private static String part(String file) throws IOException {
        return Files.readString(SOURCES.resolve(file), StandardCharsets.UTF_8);
    }

    private static String shipped(String file) throws IOException {
        try (InputStream in = PluginFile.class.getResourceAsStream(file)) {
            assertThat(in).as("%s built into the launcher's classes", file).isNotNull();
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    private static int occurrences(String text, String part) {
        int n = 0;
        for (int i = text.indexOf(part); i >= 0; i = text.indexOf(part, i + 1)) {
            n++;
        }
        return n;
    }

    @ParameterizedTest
    @ValueSource(strings = {"shellgate-opencode.js", "shellgate-pi.js"})
    void theShippedFileIsTheAgentsPartWithTheRelayInPlaceOfItsIncludeLine(String file) throws IOException {
        String part = part(file);
        assertThat(occurrences(part, INCLUDE)).as("include lines in %s", file).isEqualTo(1);
        assertThat(shipped(file)).isEqualTo(part.replace(INCLUDE, relay()));
        assertThat(occurrences(shipped(file), relay())).as("copies of the relay in %s", file).isEqualTo(1);
    }

    @ParameterizedTest
    @ValueSource(strings = {"shellgate-opencode.js", "shellgate-pi.js"})
    void noAgentsPartHoldsACopyOfTheRelay(String file) throws IOException {
        // a line longer than `} catch {`: every line of the relay that says something of its own
        List<String> relayLines = relay().lines().map(String::strip).filter(line -> line.length() > 10).toList();
        assertThat(relayLines).hasSizeGreaterThan(50);
        List<String> partLines = part(file).lines().map(String::strip).toList();
        assertThat(partLines).doesNotContainAnyElementsOf(relayLines);
    }

    @Test
    void theRelaysSourceHoldsNoPartOfAnAgents() throws IOException {
        String relay = relay();
        assertThat(relay).doesNotContain("//@include", "export ", "Shellgate", "tool_call", "const HOOK");
        assertThat(relay).contains("function relay(input)", "--serve");
    }

    @ParameterizedTest
    @ValueSource(strings = {"opencode", "kilo", "pi"})
    void setupWritesTheRelayOnceWithTheHookFilledIn(String agent) throws IOException {
        String text = PluginFile.text(agent, List.of("/opt/shellgate/shellgate-hook", agent));
        assertThat(text).startsWith(PluginFile.HEADER);
        assertThat(occurrences(text, relay())).isEqualTo(1);
        assertThat(text).contains("const HOOK = [\"/opt/shellgate/shellgate-hook\",\"" + agent + "\"]\n")
                .doesNotContain("//@");
    }
}
