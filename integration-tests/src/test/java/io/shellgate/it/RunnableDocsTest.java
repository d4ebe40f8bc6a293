package io.shellgate.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Keeps the docs true: every shell block of README.md and docs/*.md marked {@code ```sh runnable} is run against the
 * built launcher. In such a block each line is a command, and the comment lines after it state what it must do:
 * {@code # exit N} (0 when not stated) and {@code # prints: TEXT} (standard output or error contains TEXT).
 */
class RunnableDocsTest extends SandboxTest {

    record Step(String file, int line, String command, int exit, List<String> prints) {}

    static List<Step> steps(Path repo) throws IOException {
        List<Path> files = new ArrayList<>(List.of(repo.resolve("README.md")));
        try (Stream<Path> docs = Files.list(repo.resolve("docs"))) {
            docs.filter(p -> p.toString().endsWith(".md")).sorted().forEach(files::add);
        }
        List<Step> steps = new ArrayList<>();
        for (Path file : files) {
            List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
            boolean inBlock = false;
            for (int i = 0; i < lines.size(); i++) {
                String l = lines.get(i);
                if (!inBlock) {
                    inBlock = l.strip().equals("```sh runnable");
                    continue;
                }
                if (l.strip().equals("```")) {
                    inBlock = false;
                    continue;
                }
                if (l.isBlank() || l.startsWith("#")) {
                    continue;
                }
                int exit = 0;
                List<String> prints = new ArrayList<>();
                int j = i + 1;
                for (; j < lines.size() && lines.get(j).startsWith("# "); j++) {
                    String c = lines.get(j).substring(2);
                    if (c.startsWith("exit ")) {
                        exit = Integer.parseInt(c.substring(5).strip());
                    } else if (c.startsWith("prints: ")) {
                        prints.add(c.substring(8));
                    }
                }
                steps.add(new Step(repo.relativize(file).toString(), i + 1, l, exit, prints));
                i = j - 1;
            }
            assertThat(inBlock).as("a runnable block of %s is closed", file).isFalse();
        }
        return steps;
    }

    @Test
    void everyRunnableBlockOfTheDocsDoesWhatItSays() throws Exception {
        Path repo = Path.of("").toAbsolutePath().getParent();
        List<Step> steps = steps(repo);
        assertThat(steps).as("the README's first commands are runnable").hasSizeGreaterThanOrEqualTo(5);
        Map<String, String> env = new HashMap<>(box.env);
        env.put("PATH", Processes.launcher().getParent() + ":" + env.get("PATH"));
        env.put("SHELLGATE_NO_SERVER", "1");
        List<String> wrong = new ArrayList<>();
        for (Step s : steps) {
            Processes.Result r = Processes.run(List.of("bash", "-c", s.command()), env, (String) null, box.work);
            String both = r.out() + r.err();
            List<String> missing = s.prints().stream().filter(p -> !both.contains(p)).toList();
            if (r.code() != s.exit() || !missing.isEmpty()) {
                wrong.add(s.file() + ":" + s.line() + ": " + s.command() + "\n  expected exit " + s.exit() + " and " + s.prints()
                        + "\n  got " + r);
            }
        }
        assertThat(wrong).as("runnable doc lines that do not do what the docs say").isEmpty();
    }
}
