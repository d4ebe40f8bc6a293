package io.shellgate.it.agents;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * shellgate's OpenCode plugin (also Kilo's), as shellgate.jar ships it, in a real node process,
 * with a stand-in for the {@code shellgate-hook --serve} it keeps: a process that dies is started
 * again once for the same call and the call is refused when it dies again; one that says nothing is
 * not waited for past the plugin's deadline; an answer is acted on. What the real client answers
 * is held by ProtocolContractTest and the real agents' runs.
 */
class PluginRelayTest {

    @TempDir
    Path dir;

    private Path starts;

    @BeforeEach
    void node() {
        Assumptions.assumeTrue(AgentInstall.onPath("node").isPresent() || "true".equals(System.getenv("CI")), "node is not on PATH");
        starts = dir.resolve("starts");
    }

    /** A stand-in named shellgate-hook running {@code body} (bash) after counting its start in {@link #starts}. */
    private Path standIn(String body) throws Exception {
        Path bin = Files.createDirectories(dir.resolve("bin")).resolve("shellgate-hook");
        Files.writeString(bin, "#!/bin/bash\n[ \"$1\" = --serve ] || exit 9\necho start >> '" + starts + "'\n" + body + "\n");
        Files.setPosixFilePermissions(bin, PosixFilePermissions.fromString("rwx------"));
        return bin;
    }

    /** One bash call through the plugin: "allowed", or the refusal's message. */
    private String call(Path client, String command) throws Exception {
        Files.writeString(dir.resolve("plugin.mjs"), OpenCodeSetup.plugin(List.of(client.toString(), "kilo")));
        Files.writeString(dir.resolve("call.mjs"), """
                const hooks = await (await import("./plugin.mjs")).Shellgate({ directory: process.cwd() })
                try {
                  await hooks["tool.execute.before"]({ tool: "bash", sessionID: "s", callID: "c" }, { args: { command: process.argv[2] } })
                  console.log("allowed")
                } catch (e) {
                  console.log(e.message)
                }
                """);
        Process p = new ProcessBuilder("node", "call.mjs", command).directory(dir.toFile()).redirectErrorStream(true)
                .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null"))).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        return out.strip();
    }

    private long startCount() throws Exception {
        return Files.exists(starts) ? Files.readAllLines(starts).size() : 0;
    }

    @Test
    void aClientThatDiesIsStartedOnceMoreThenTheCallIsRefused() throws Exception {
        Path client = standIn("echo 'shellgate: broken here' >&2\nexit 3");
        assertThat(call(client, "ls")).startsWith("shellgate: refused: the gate gave no answer").contains("broken here");
        assertThat(startCount()).isEqualTo(2);
    }

    @Test
    void aClientThatDiedIsReplacedAndItsAnswerActedOn() throws Exception {
        // the first start dies; the second answers: allow for ls, deny for anything else
        Path client = standIn("""
                [ "$(wc -l < '%s')" -gt 1 ] || exit 3
                while IFS= read -r line; do
                  case $line in
                    *'"command":"ls"'*) printf '%%s\\n' '{"exit":0,"stdout":"{\\"decision\\":\\"allow\\",\\"reason\\":\\"ok\\"}\\n","stderr":""}' ;;
                    *) printf '%%s\\n' '{"wait":1}' '{"exit":0,"stdout":"{\\"decision\\":\\"deny\\",\\"reason\\":\\"shellgate: refused (x): no\\"}\\n","stderr":""}' ;;
                  esac
                done
                """.formatted(starts));
        assertThat(call(client, "ls")).isEqualTo("allowed");
        assertThat(startCount()).isEqualTo(2);
        Files.delete(starts);
        Files.writeString(starts, "start\n");
        assertThat(call(client, "touch x")).isEqualTo("shellgate: refused (x): no");
    }

    @Test
    void aClientThatSaysNothingIsNotWaitedForAndTheCallIsRefused() throws Exception {
        Path client = standIn("read -r line\nsleep 120");
        assertThat(call(client, "ls")).startsWith("shellgate: refused: the gate gave no answer").contains("no answer within 10 s");
        assertThat(startCount()).isEqualTo(1);
    }

    @Test
    void anAnswerThatIsNotOneIsARefusal() throws Exception {
        Path client = standIn("read -r line\necho '{\"exit\":\"0\"}'\nsleep 120");
        assertThat(call(client, "ls")).startsWith("shellgate: refused: the gate gave no answer").contains("not one");
    }
}
