package io.shellgate.judge;

import static org.assertj.core.api.Assertions.assertThat;

import io.shellgate.rules.Tier;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The judge server's run directory holds its token, proof and sessions' passes: none of the
 * readers the judge allows on an ordinary file may read them, wherever the run directory is put
 * by the request's environment ({@code XDG_RUNTIME_DIR}, {@code XDG_STATE_HOME}, {@code HOME},
 * {@code SHELLGATE_RUN_DIR} anywhere).
 */
class GateSecretsTest {

    private static final Judge JUDGE = Judges.defaults();

    /** Readers the judge allows on an ordinary file; {@code F} is the file, {@code D} its directory's parent. */
    private static final List<String> READERS = List.of("cat F", "sort F", "wc F", "wc -c F", "head F", "head -c 64 F", "tail F",
            "nl F", "od -c F", "xxd F", "base64 F", "strings F", "grep . F", "grep -h '' F", "cut -c1- F", "sed -n p F",
            "awk '{print}' F", "tr a b < F", "cat < F", "diff F /dev/null", "cmp F /dev/null", "rev F", "tac F", "fold F",
            "git diff --no-index /dev/null F", "grep -r . D", "grep -rl . D", "find D -type f -exec cat {} +");

    static Stream<Arguments> layouts() {
        return Stream.of(Arguments.of("XDG_RUNTIME_DIR", "runtime", "shellgate"),
                Arguments.of("XDG_STATE_HOME", "state", "shellgate/run"),
                Arguments.of("HOME", "home", ".local/state/shellgate/run"),
                Arguments.of("SHELLGATE_RUN_DIR", "some where/else", ""));
    }

    @TempDir
    Path root;

    @ParameterizedTest(name = "{0}")
    @MethodSource("layouts")
    void noAllowedReaderReadsTheRunDirectorysSecrets(String variable, String base, String below) throws IOException {
        Path home = Files.createDirectories(root.resolve("home"));
        Path project = Files.createDirectories(home.resolve("project"));
        Files.writeString(project.resolve("notes.txt"), "notes\n");
        Path baseDir = Files.createDirectories(root.resolve(base));
        Path run = Files.createDirectories(below.isEmpty() ? baseDir : baseDir.resolve(below));
        Path wrap = Files.createDirectories(run.resolve("wrap-4242-abcdef"));
        List<Path> secrets = new ArrayList<>();
        for (Path f : List.of(run.resolve("server.token"), run.resolve("server.proof"), run.resolve("server.trusted"),
                run.resolve("server.port"), run.resolve("server.pid"), wrap.resolve("pass.key"), wrap.resolve("once.key"))) {
            secrets.add(Files.writeString(f, "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef\n"));
        }
        Map<String, String> env = new HashMap<>(Map.of("HOME", home.toString(), "PATH", "/usr/bin:/bin", "LANG", "C.UTF-8"));
        env.put(variable, variable.equals("HOME") ? home.toString()
                : variable.equals("SHELLGATE_RUN_DIR") ? run.toString() : baseDir.toString());
        if (variable.equals("HOME")) {
            Files.createDirectories(home.resolve(".local/state/shellgate/run"));
        }
        Path ordinary = project.resolve("notes.txt");
        for (String reader : READERS) {
            assertThat(judge(form(reader, ordinary, project), project, env)).as(reader + " of an ordinary file").isEqualTo(Tier.ALLOW);
        }
        List<String> read = new ArrayList<>();
        for (Path secret : secrets) {
            for (String reader : READERS) {
                String line = form(reader, secret, secret.getParent().getParent());
                if (judge(line, project, env) == Tier.ALLOW) {
                    read.add(line);
                }
            }
            // the same by a relative path from the run directory itself
            if (judge("cat " + secret.getFileName(), secret.getParent(), env) == Tier.ALLOW) {
                read.add("cd " + secret.getParent() + " && cat " + secret.getFileName());
            }
        }
        assertThat(read).as("allowed reads of the run directory's files").isEmpty();
    }

    @org.junit.jupiter.api.Test
    void noCommandThatWritesTheGatesOwnFilesRunsUnasked() throws IOException {
        Path home = Files.createDirectories(root.resolve("home"));
        Path project = Files.createDirectories(home.resolve("project/.shellgate"));
        Path state = Files.createDirectories(home.resolve(".local/state/shellgate"));
        Path config = Files.createDirectories(home.resolve(".config/shellgate"));
        Map<String, String> env = Map.of("HOME", home.toString(), "PATH", "/usr/bin:/bin", "LANG", "C.UTF-8");
        List<Path> files = new ArrayList<>();
        for (Path f : List.of(config.resolve("policy.toml"), project.resolve("policy.toml"), state.resolve("audit.jsonl"),
                state.resolve("audit.lock"), state.resolve("run/server.token"))) {
            Files.createDirectories(f.getParent());
            files.add(Files.writeString(f, "x\n"));
        }
        List<String> writers = List.of("echo '[[approved]]' >> F", "printf x > F", "tee -a F < /dev/null", "cp /dev/null F",
                "sed -i s/x/y/ F", "truncate -s 0 F", "rm F", "mv F F.old", "ln -sf /dev/null F", "dd of=F", "touch F",
                ": > F", "true >| F", "exec 3>>F");
        List<String> allowed = new ArrayList<>();
        for (Path f : files) {
            for (String w : writers) {
                String line = form(w, f, f.getParent());
                if (judge(line, project.getParent(), env) == Tier.ALLOW) {
                    allowed.add(line);
                }
            }
        }
        assertThat(allowed).as("allowed writes to the gate's own files").isEmpty();
    }

    private static String form(String reader, Path file, Path parent) {
        return reader.replace("F", quote(file)).replace("D", quote(parent));
    }

    private static String quote(Path p) {
        return "'" + p + "'";
    }

    private static Tier judge(String line, Path cwd, Map<String, String> env) {
        return JUDGE.judge(new JudgeRequest(line, Dialect.BASH, cwd, env)).tier();
    }
}
