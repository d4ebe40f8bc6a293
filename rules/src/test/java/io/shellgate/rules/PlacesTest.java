package io.shellgate.rules;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Where shellgate's files are: only absolute paths count, and a missing home is the password database's. */
class PlacesTest {

    @TempDir
    Path runtime;

    private static final Path USER_HOME = Path.of(System.getProperty("user.home"));

    @Test
    void explicitVariablesComeFirst() {
        Map<String, String> env = Map.of("SHELLGATE_STATE_DIR", "/s", "SHELLGATE_RUN_DIR", "/r", "SHELLGATE_CACHE_DIR", "/c",
                "XDG_STATE_HOME", "/xs", "XDG_CACHE_HOME", "/xc", "XDG_CONFIG_HOME", "/xg", "HOME", "/h");
        assertThat(Places.state(env)).contains(Path.of("/s"));
        assertThat(Places.run(env)).isEqualTo(Path.of("/r"));
        assertThat(Places.cache(env)).isEqualTo(Path.of("/c"));
        assertThat(Places.userPolicy(env)).contains(Path.of("/xg/shellgate/policy.toml"));
    }

    @Test
    void xdgDirectoriesThenHome() {
        Map<String, String> xdg = Map.of("XDG_STATE_HOME", "/xs", "XDG_CACHE_HOME", "/xc", "HOME", "/h",
                "XDG_RUNTIME_DIR", runtime.toString());
        assertThat(Places.state(xdg)).contains(Path.of("/xs/shellgate"));
        assertThat(Places.run(xdg)).isEqualTo(runtime.resolve("shellgate"));
        assertThat(Places.cache(xdg)).isEqualTo(Path.of("/xc/shellgate"));
        assertThat(Places.userPolicy(xdg)).contains(Path.of("/h/.config/shellgate/policy.toml"));
        // a runtime directory that is not there is passed over
        assertThat(Places.run(Map.of("XDG_RUNTIME_DIR", runtime.resolve("gone").toString(), "XDG_STATE_HOME", "/xs")))
                .isEqualTo(Path.of("/xs/shellgate/run"));
        Map<String, String> home = Map.of("HOME", "/h");
        assertThat(Places.state(home)).contains(Path.of("/h/.local/state/shellgate"));
        assertThat(Places.run(home)).isEqualTo(Path.of("/h/.local/state/shellgate/run"));
        assertThat(Places.cache(home)).isEqualTo(Path.of("/h/.cache/shellgate"));
    }

    @Test
    void relativePathsNeverCountForTheyMoveWithTheWorkingDirectory() {
        Map<String, String> env = Map.of("SHELLGATE_STATE_DIR", "elsewhere", "SHELLGATE_RUN_DIR", "run", "SHELLGATE_CACHE_DIR",
                "cache", "XDG_STATE_HOME", "state", "XDG_CACHE_HOME", ".", "XDG_CONFIG_HOME", "evil", "HOME", "/h");
        assertThat(Places.state(env)).contains(Path.of("/h/.local/state/shellgate"));
        assertThat(Places.run(env)).isEqualTo(Path.of("/h/.local/state/shellgate/run"));
        assertThat(Places.cache(env)).isEqualTo(Path.of("/h/.cache/shellgate"));
        assertThat(Places.userPolicy(env)).contains(Path.of("/h/.config/shellgate/policy.toml"));
    }

    @Test
    void withoutAHomeTheStateAndTheUserPolicyAreNowhereAndTheRestIsInThePasswordDatabasesHome() {
        for (Map<String, String> env : java.util.List.of(Map.<String, String>of(), Map.of("HOME", ""), Map.of("HOME", "rel"))) {
            assertThat(Places.state(env)).as(env.toString()).isEmpty();
            assertThat(Places.userPolicy(env)).as(env.toString()).isEmpty();
            assertThat(Places.run(env)).as(env.toString()).isEqualTo(USER_HOME.resolve(".local/state/shellgate/run"));
            assertThat(Places.cache(env)).as(env.toString()).isEqualTo(USER_HOME.resolve(".cache/shellgate"));
        }
    }
}
