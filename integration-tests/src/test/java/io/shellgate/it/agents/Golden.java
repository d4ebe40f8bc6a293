package io.shellgate.it.agents;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Golden files under {@code src/test/resources/agents}: what each pinned agent sends and starts,
 * compared on every run. {@code -Dagents.golden.write=true} rewrites them; review the diff, it is
 * what changed in an agent's envelope or hook input.
 */
final class Golden {

    static final Path DIR = Path.of("src/test/resources/agents");

    private Golden() {}

    static void check(String name, String actual) throws IOException {
        Path file = DIR.resolve(name);
        if (Boolean.getBoolean("agents.golden.write")) {
            Files.createDirectories(DIR);
            Files.writeString(file, actual);
            return;
        }
        assertThat(file).as("golden file; write it with -Dagents.golden.write=true").exists();
        assertThat(actual).as("differs from " + file + " (rewrite with -Dagents.golden.write=true and review)")
                .isEqualTo(Files.readString(file));
    }

    /**
     * A golden file that lists the known forms of something that comes in several (each block
     * starting with {@code === }): every observed block must be one of them. Writing adds the
     * observed blocks to those already known; delete the file to start afresh.
     */
    static void checkKnownForms(String name, List<String> observed) throws IOException {
        Path file = DIR.resolve(name);
        Set<String> known = new LinkedHashSet<>(Files.isRegularFile(file) ? blocks(Files.readString(file)) : List.of());
        if (Boolean.getBoolean("agents.golden.write")) {
            known.addAll(observed);
            Files.createDirectories(DIR);
            Files.writeString(file, String.join("", known));
            return;
        }
        assertThat(file).as("golden file; write it with -Dagents.golden.write=true").exists();
        assertThat(known).as("known forms in " + file + " (add new ones with -Dagents.golden.write=true and review)")
                .containsAll(observed);
    }

    private static List<String> blocks(String text) {
        List<String> blocks = new ArrayList<>();
        int start = 0;
        for (int next = text.indexOf("\n=== ", start); next >= 0; next = text.indexOf("\n=== ", start)) {
            blocks.add(text.substring(start, next + 1));
            start = next + 1;
        }
        if (start < text.length()) {
            blocks.add(text.substring(start));
        }
        return blocks;
    }
}
