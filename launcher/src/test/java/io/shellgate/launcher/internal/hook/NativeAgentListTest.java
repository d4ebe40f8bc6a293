package io.shellgate.launcher.internal.hook;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The native client (shellgate-hook.c) names the agents it relays in a table of its own: it must be
 * exactly the agents {@link HookAgent} answers for, with the short names {@link HookAgent#parse} takes,
 * so that a new agent is not refused by the relay while the JVM would answer it (or the other way).
 */
class NativeAgentListTest {

    private static final Path SOURCE = Path.of("src/main/c/shellgate-hook.c");

    @Test
    void theNativeClientsAgentTableIsHookAgentsIdsAndTheirShortNames() throws IOException {
        String c = Files.readString(SOURCE, StandardCharsets.UTF_8);
        Matcher table = Pattern.compile("static const char \\*const agents\\[\\] = \\{(.*?)NULL,", Pattern.DOTALL).matcher(c);
        assertThat(table.find()).as("the agents table in " + SOURCE).isTrue();
        List<String> relayed = new ArrayList<>();
        Matcher name = Pattern.compile("\"([a-z-]+)\"").matcher(table.group(1));
        while (name.find()) {
            relayed.add(name.group(1));
        }
        for (String n : relayed) {
            assertThat(HookAgent.parse(n)).as("shellgate-hook relays %s, which HookAgent does not know", n).isPresent();
        }
        List<String> ids = Arrays.stream(HookAgent.values()).map(HookAgent::id).toList();
        assertThat(relayed).as("every agent HookAgent answers for is in shellgate-hook's table").containsAll(ids);
        for (String id : ids) {
            int dash = id.indexOf('-');
            if (dash > 0) {
                assertThat(relayed).as("the short name of " + id).contains(id.substring(0, dash));
            }
        }
    }
}
