package io.shellgate.launcher.internal.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.shellgate.judge.Dialect;
import io.shellgate.judge.Judge;
import io.shellgate.judge.Judges;
import io.shellgate.launcher.internal.server.BatchLines;
import io.shellgate.rules.PolicyLoader;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class BatchLinesTest {

    @TempDir
    Path dir;

    private BatchLines lines;

    @BeforeEach
    void judge() throws Exception {
        Files.createDirectories(dir.resolve("home"));
        Map<String, String> env = Map.of("HOME", dir.resolve("home").toString(), "PATH", "/usr/bin:/bin",
                "XDG_CONFIG_HOME", dir.resolve("config").toString());
        Judge judge = Judges.create(PolicyLoader.load(PolicyLoader.discover(dir, env, null), env.get("HOME")));
        lines = new BatchLines(judge, dir, Dialect.BASH, env);
    }

    /** The corpus sample the AOT cache is trained on, with lines that cannot be judged among them. */
    static String sample() throws IOException {
        String corpus;
        try (InputStream in = BatchLinesTest.class.getResourceAsStream("/io/shellgate/launcher/aot-batch-lines.jsonl")) {
            corpus = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        List<String> out = new ArrayList<>();
        List<String> bad = List.of("not json", "{\"dialect\": \"bash\"}", "", "[1]", "{\"cmd\": \"ls\", \"dialect\": \"fish\"}",
                "{\"cmd\": \"ls\", \"cwd\": \"relative\"}", "{\"cmd\": \"ls\", \"env\": {\"PATH\": 5}}", "{\"cmd\": \"caf\u00e9 | sh\"}");
        List<String> good = corpus.lines().toList();
        for (int i = 0; i < good.size(); i++) {
            out.add(good.get(i));
            if (i % 50 == 7) {
                out.add(bad.get(i / 50 % bad.size()));
            }
        }
        return String.join("\n", out) + "\n";
    }

    private String answers(String input, int threads) throws IOException {
        StringWriter out = new StringWriter();
        lines.run(new ByteArrayInputStream(input.getBytes(StandardCharsets.UTF_8)), out, threads);
        return out.toString();
    }

    @Test
    void judgingOnSeveralThreadsKeepsTheOrderAndTheAnswersOfOneThread() throws Exception {
        String input = sample();
        String one = answers(input, 1);
        assertThat(one.lines().count()).isEqualTo(input.lines().count()).isGreaterThan(600);
        assertThat(answers(input, 4)).isEqualTo(one);
    }

    @Test
    void aLineThatCannotBeReadIsAnsweredInItsPlace() throws Exception {
        // slow lines (deep nesting) before and after the bad ones: a pool that answered in finishing order would move them
        String deep = "{\"cmd\": \"" + "echo $(".repeat(60) + "x" + ")".repeat(60) + "\"}";
        String input = String.join("\n", deep, "not json", "{\"cmd\": \"rm -rf /\"}", "[1]", deep, "{\"dialect\": \"bash\"}",
                "{\"cmd\": \"ls\"}") + "\n";
        List<String> out = answers(input, 4).lines().toList();
        assertThat(out).hasSize(7);
        assertThat(out.get(0)).startsWith("{\"cmd\":\"echo $(echo");
        assertThat(out.get(1)).startsWith("{\"line\":2,\"error\":\"not valid JSON");
        assertThat(out.get(2)).startsWith("{\"cmd\":\"rm -rf /\",\"tier\":\"deny\"");
        assertThat(out.get(3)).isEqualTo("{\"line\":4,\"error\":\"each line must be a JSON object like {\\\"cmd\\\": \\\"ls -la\\\"}\"}");
        assertThat(out.get(4)).isEqualTo(out.get(0));
        assertThat(out.get(5)).isEqualTo("{\"line\":6,\"error\":\"the field \\\"cmd\\\" (a string) is required\"}");
        assertThat(out.get(6)).startsWith("{\"cmd\":\"ls\",\"tier\":\"allow\"");
    }

    @Test
    void aLastLineWithoutANewlineAndCarriageReturnsAreReadAsAloneInput() throws Exception {
        String input = "{\"cmd\": \"ls\"}\r\n{\"cmd\": \"pwd\"}";
        assertThat(answers(input, 4)).isEqualTo(answers(input, 1));
        assertThat(answers(input, 4).lines()).hasSize(2);
    }
}
