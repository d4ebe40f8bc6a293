package io.shellgate.interceptor.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.shellgate.rules.Places;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The agent's own copy of where shellgate's files are agrees with the launcher's, and follows links as the kernel does. */
class GateFilesTest {

    @TempDir
    Path dir;

    @Test
    void theDirectoriesAreTheOnesPlacesNamesInEveryLayout() {
        for (Map<String, String> env : List.of(Map.of("HOME", "/h"),
                Map.of("HOME", "/h", "XDG_CONFIG_HOME", "/c", "XDG_STATE_HOME", "/s", "XDG_RUNTIME_DIR", "/r", "XDG_CACHE_HOME", "/k"),
                Map.of("HOME", "/h", "SHELLGATE_STATE_DIR", "/st", "SHELLGATE_RUN_DIR", "/run dir", "SHELLGATE_CACHE_DIR", "/ca"),
                Map.of("HOME", "/h", "SHELLGATE_RUN_DIR", "relative", "XDG_STATE_HOME", "also/relative"))) {
            List<String> places = Places.gateDirectories(env).stream().map(Path::toString).sorted().toList();
            assertThat(GateFiles.of(env).dirs().stream().sorted().toList()).as(env.toString()).isEqualTo(places);
        }
    }

    @Test
    void writesThroughLinksDotsAndDanglingLinksLandInTheGatesDirectories() throws Exception {
        Path home = Files.createDirectories(dir.resolve("home"));
        GateFiles files = GateFiles.of(Map.of("HOME", home.toString()));
        Path work = Files.createDirectories(dir.resolve("work"));
        // a link to a directory that is not there yet: the write would create the file there
        Files.createSymbolicLink(work.resolve("conf"), home.resolve(".config"));
        Files.createSymbolicLink(work.resolve("up"), home.resolve(".config/x"));
        assertThat(files.holding(work.resolve("conf/shellgate/policy.toml").toString())).isEqualTo(home + "/.config/shellgate");
        assertThat(files.holding(work.resolve("up/../shellgate/policy.toml").toString())).isEqualTo(home + "/.config/shellgate");
        assertThat(files.holding(home.resolve(".config/shellgate/../shellgate/p.toml").toString())).isNotNull();
        assertThat(files.holding(work.resolve("project/.shellgate/policy.toml").toString())).endsWith("/.shellgate");
        assertThat(files.holding(home.resolve(".local/state/shellgate/audit.jsonl").toString())).isNotNull();
        assertThat(files.holding(work.resolve("notes.txt").toString())).isNull();
        assertThat(files.holding(home.resolve(".config/shellgate-other/x").toString())).isNull();
    }
}
