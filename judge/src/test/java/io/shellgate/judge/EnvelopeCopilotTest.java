package io.shellgate.judge;

import static org.assertj.core.api.Assertions.assertThat;

import io.shellgate.rules.Tier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** GitHub Copilot CLI's login-environment probe: its exact text, and the profile files the login shell runs. */
class EnvelopeCopilotTest {

    @TempDir
    Path dir;

    private EnvelopeSite site;
    private String probe;

    @BeforeEach
    void site() {
        site = new EnvelopeSite(dir);
        List<String> texts = site.captured("copilot_cli");
        probe = texts.getFirst();
        assertThat(texts.get(1)).isEqualTo("ls -la");
    }

    private Optional<Envelopes.Unwrapped> unwrap(String text) {
        return Envelopes.unwrap("copilot-cli", site.request(text));
    }

    @Test
    void theCapturedProbeIsRecognisedAsAProbeAndTheCommandLeftAsItIs() {
        assertThat(probe).startsWith("printf %s '__copilot_login_env_snapshot_" + EnvelopeSite.COPILOT_MARKER + "__'; ");
        assertThat(unwrap(probe)).contains(new Envelopes.Unwrapped("copilot-cli 1.0 login environment probe", null));
        assertThat(unwrap("ls -la")).isEmpty();
        for (String agent : List.of("claude-code", "codex", "gemini-cli", "qwen-code")) {
            assertThat(Envelopes.unwrap(agent, site.request(probe))).as(agent).isEmpty();
        }
        assertThat(Envelopes.unwrap("copilot-cli", new JudgeRequest(probe, Dialect.ZSH, site.root, site.env, List.of(), true)))
                .as("${!name} is bash's").isEmpty();
    }

    @Test
    void withoutTheEnvelopeTheJudgeRefusesTheProbe() {
        assertThat(Judges.defaults().judge(site.request(probe)).tier()).isNotEqualTo(Tier.ALLOW);
    }

    @ParameterizedTest
    @ValueSource(strings = {"%s; rm -rf ~", "%s\nid", " %s", "%s ", "rm -rf ~; %s", "%s &"})
    void anythingAroundItIsNotTheProbe(String around) {
        assertThat(unwrap(around.formatted(probe))).isEmpty();
    }

    @Test
    void anyChangeInsideItIsNotTheProbe() {
        List<String> mutated = List.of(
                probe.replace("env -0 2>/dev/null", "env -0 sh -c id 2>/dev/null"),
                probe.replace("command env", "env"),
                probe.replace("$(compgen -e)", "$(id)"),
                probe.replace("\"${!__copilot_k}\"", "\"$(id)\""),
                probe.replace("2>/dev/null", "2>/tmp/x"),
                probe.replace(EnvelopeSite.COPILOT_MARKER, "x'; id; '"),
                probe.replace(EnvelopeSite.COPILOT_MARKER, "19AE_7D"),
                probe.replace("\\0", "\\n"),
                probe.replace("; done; fi", "; done; fi; id"));
        for (String text : mutated) {
            assertThat(text).isNotEqualTo(probe);
            assertThat(unwrap(text)).as(text).isEmpty();
        }
    }

    @Test
    void theUsersProfileFileMustOnlyDefine() throws Exception {
        Path profile = site.home.resolve(".profile");
        Files.writeString(profile, "# ~/.profile\nshopt -s histappend\nmkcd() { mkdir -p \"$1\" && cd \"$1\"; }\n"
                + "export LANG=" + site.env.getOrDefault("LANG", "C.UTF-8") + "\n");
        site.env.putIfAbsent("LANG", "C.UTF-8");
        assertThat(unwrap(probe)).as("definitions only").isPresent();
        for (String line : List.of("if [ -f \"$HOME/.bashrc\" ]; then . \"$HOME/.bashrc\"; fi", "PATH=\"$HOME/bin:$PATH\"",
                "export PATH=/tmp/evil:/usr/bin", "alias printf='id;printf'", "export LD_PRELOAD=/tmp/x.so", "touch /tmp/pwned",
                "printf() { id; }", "command() { id; }")) {
            Files.writeString(profile, line + "\n");
            assertThat(unwrap(probe)).as(line).isEmpty();
        }
        Files.writeString(site.home.resolve(".bash_profile"), "# only this one is read\n");
        assertThat(unwrap(probe)).as("bash reads the first of .bash_profile, .bash_login, .profile").isPresent();
        Files.writeString(site.home.resolve(".bash_login"), "touch /tmp/pwned\n");
        assertThat(unwrap(probe)).isPresent();
        Files.writeString(site.home.resolve(".bash_profile"), "curl -s 127.0.0.1:9 | sh\n");
        assertThat(unwrap(probe)).isEmpty();
        Files.delete(site.home.resolve(".bash_profile"));
        Files.delete(site.home.resolve(".bash_login"));
        Files.delete(profile);
        Files.createSymbolicLink(profile, site.root.resolve("elsewhere"));
        assertThat(unwrap(probe)).as("a link").isEmpty();
    }
}
