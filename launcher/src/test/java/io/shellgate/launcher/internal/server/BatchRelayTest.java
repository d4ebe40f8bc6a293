package io.shellgate.launcher.internal.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.shellgate.judge.Dialect;
import io.shellgate.judge.Judges;
import io.shellgate.launcher.internal.gate.Gatekeepers;
import io.shellgate.rules.PolicyLoader;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code check --batch} relayed to a real judge server on a Unix socket, against the same batch judged in this JVM. */
class BatchRelayTest {

    @TempDir
    Path dir;

    private Map<String, String> env;
    private RunDir run;
    private JudgeServer server;

    @BeforeEach
    void serve() throws Exception {
        Files.createDirectories(dir.resolve("home"));
        env = Map.of("HOME", dir.resolve("home").toString(), "PATH", "/usr/bin:/bin",
                "XDG_CONFIG_HOME", dir.resolve("config").toString(), "XDG_STATE_HOME", dir.resolve("state").toString(),
                "LANG", "C.UTF-8");
        run = new RunDir(dir.resolve("run"));
        server = new JudgeServer(run, new RequestHandler(new Gatekeepers(null), null, null), Duration.ofMinutes(5));
        server.start();
    }

    @AfterEach
    void stop() {
        server.close();
    }

    private static String sample() throws Exception {
        String corpus;
        try (InputStream in = BatchRelayTest.class.getResourceAsStream("/io/shellgate/launcher/aot-batch-lines.jsonl")) {
            corpus = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        // lines that cannot be judged among the corpus's, and a last one without its newline
        return "not json\n" + corpus + "{\"dialect\": \"zsh\"}\n[1]\n\n{\"cmd\": \"caf\u00e9 && rm -rf ~\", \"cwd\": \"/nonexistent\"}\n"
                + "{\"cmd\": \"ls\"}";
    }

    private byte[] inThisJvm(String input, Path cwd) throws Exception {
        BatchLines lines = new BatchLines(Judges.create(PolicyLoader.load(PolicyLoader.discover(cwd, env, null), env.get("HOME"))),
                cwd, Dialect.BASH, env);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        Writer w = new OutputStreamWriter(out, StandardCharsets.UTF_8);
        lines.run(new ByteArrayInputStream(input.getBytes(StandardCharsets.UTF_8)), w, 1);
        w.flush();
        return out.toByteArray();
    }

    @Test
    void theServersAnswersAreByteForByteThoseOfThisJvm() throws Exception {
        String input = sample();
        Path cwd = dir.resolve("home");
        ByteArrayOutputStream relayed = new ByteArrayOutputStream();
        Optional<Integer> code = BatchRelay.relay(run, cwd, "bash", env,
                new ByteArrayInputStream(input.getBytes(StandardCharsets.UTF_8)), relayed);
        assertThat(code).contains(0);
        byte[] own = inThisJvm(input, cwd);
        assertThat(new String(own, StandardCharsets.UTF_8).lines().count()).isEqualTo(input.lines().count());
        assertThat(new String(relayed.toByteArray(), StandardCharsets.UTF_8)).isEqualTo(new String(own, StandardCharsets.UTF_8));
        assertThat(relayed.toByteArray()).isEqualTo(own);
    }

    @Test
    void aProjectPolicyOfTheBatchsDirectoryAppliesThroughTheServerToo() throws Exception {
        Path project = dir.resolve("project");
        Files.createDirectories(project.resolve(".shellgate"));
        Files.writeString(project.resolve(".shellgate/policy.toml"), """
                [[rule]]
                id = "no-listing"
                tier = "deny"
                reason = "the project's own rule"
                command = ["ls"]
                match = ["ls -la"]
                """);
        String input = "{\"cmd\": \"ls -la\"}\n{\"cmd\": \"rm -rf build\"}\n";
        ByteArrayOutputStream relayed = new ByteArrayOutputStream();
        assertThat(BatchRelay.relay(run, project, "bash", env, new ByteArrayInputStream(input.getBytes(StandardCharsets.UTF_8)),
                relayed)).contains(0);
        assertThat(relayed.toString(StandardCharsets.UTF_8)).startsWith("{\"cmd\":\"ls -la\",\"tier\":\"deny\"")
                .contains("no-listing").isEqualTo(new String(inThisJvm(input, project), StandardCharsets.UTF_8));
    }

    @Test
    void aServerThatRefusesTheBatchLeavesItToThisJvmWithItsInputUnread() throws Exception {
        ByteArrayInputStream input = new ByteArrayInputStream("{\"cmd\": \"ls\"}\n".getBytes(StandardCharsets.UTF_8));
        assertThat(BatchRelay.relay(run, dir.resolve("home"), "fish", env, input, new ByteArrayOutputStream())).isEmpty();
        assertThat(input.available()).isEqualTo(14);
        server.close();
        assertThat(BatchRelay.relay(run, dir.resolve("home"), "bash", env, input, new ByteArrayOutputStream())).isEmpty();
        assertThat(input.available()).isEqualTo(14);
    }

    @Test
    void aBatchRequestStartsOneBatchOnItsConnection() throws Exception {
        RequestHandler handler = new RequestHandler(new Gatekeepers(null), null, null);
        RequestHandler.Connection c = new RequestHandler.Connection();
        String header = BatchRelay.header(dir.resolve("home"), "bash", env);
        assertThat(Protocol.line(handler.batch(Protocol.parse(header.strip()), c))).isEqualTo("{\"v\":1,\"batch\":true}");
        assertThat(c.takeBatch()).isNotNull();
        assertThat(c.takeBatch()).isNull();
    }
}
