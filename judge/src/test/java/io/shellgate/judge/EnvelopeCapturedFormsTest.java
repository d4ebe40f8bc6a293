package io.shellgate.judge;

import static org.assertj.core.api.Assertions.assertThat;

import io.shellgate.rules.Tier;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every shell text captured from the real agents (Claude Code 2.1.328, Gemini CLI 0.61.0, Codex
 * 0.169.0, Qwen Code 0.24.4) for the model's {@code ls -la}: each envelope is recognised and
 * yields exactly {@code ls -la}, each start-up probe is recognised as one, and texts that are the
 * command itself are left to the judge.
 */
class EnvelopeCapturedFormsTest {

    @TempDir
    Path dir;

    private EnvelopeSite site;

    @BeforeEach
    void site() {
        site = new EnvelopeSite(dir);
    }

    @Test
    void claudeCodesProbesAndCommandEnvelopeAreRecognised() {
        List<String> texts = site.captured("claude_code");
        assertThat(texts).hasSize(3);
        assertThat(unwrap("claude-code", texts.get(0))).contains(new Envelopes.Unwrapped("claude-code 2.1 environment probe", null));
        assertThat(unwrap("claude-code", texts.get(1))).contains(new Envelopes.Unwrapped("claude-code 2.1 snapshot script", null));
        assertThat(unwrap("claude-code", texts.get(2))).contains(new Envelopes.Unwrapped("claude-code 2.1 command",
                new JudgeRequest("ls -la", Dialect.BASH, site.root, site.env, List.of(), true)));
    }

    @Test
    void geminiClisCommandEnvelopeIsRecognised() {
        List<String> texts = site.captured("gemini_cli");
        assertThat(texts).hasSize(1);
        assertThat(unwrap("gemini-cli", texts.getFirst())).contains(new Envelopes.Unwrapped("gemini-cli 0.61 command",
                new JudgeRequest("ls -la", Dialect.BASH, site.root, site.env, List.of(), true)));
    }

    @Test
    void codexsProbesAndSnapshotEnvelopeAreRecognisedAndItsPlainFormsLeftAsTheyAre() {
        List<String> texts = site.captured("codex");
        assertThat(texts).as("the helper's argv, then the shell's own, for the snapshot envelope").hasSize(7);
        assertThat(unwrap("codex", texts.get(0))).contains(new Envelopes.Unwrapped("codex 0.169 snapshot capture", null));
        assertThat(texts.get(1)).isEqualTo("ls -la");
        assertThat(unwrap("codex", texts.get(1))).isEmpty();
        assertThat(unwrap("codex", texts.get(2))).isEmpty();
        assertThat(unwrap("codex", texts.get(3))).contains(new Envelopes.Unwrapped("codex 0.169 snapshot check", null));
        var env = new java.util.HashMap<>(site.env);
        env.put("PATH", site.codexPath + ":/usr/bin:/bin");
        for (int i : new int[] {4, 5}) {
            assertThat(unwrap("codex", texts.get(i))).contains(new Envelopes.Unwrapped("codex 0.169 command",
                    new JudgeRequest("ls -la", Dialect.BASH, site.root, env, List.of(), true)));
        }
        assertThat(unwrap("codex", texts.get(6))).isEmpty();
    }

    @Test
    void noTextOfOneAgentIsRecognisedForAnother() {
        for (String from : List.of("claude_code", "gemini_cli", "codex", "copilot_cli")) {
            for (String text : site.captured(from)) {
                for (String agent : Envelopes.agents()) {
                    if (!agent.replace('-', '_').equals(from)) {
                        assertThat(unwrap(agent, text)).as(agent + " given " + from + "'s " + text.lines().findFirst().orElse(""))
                                .isEmpty();
                    }
                }
            }
        }
    }

    @Test
    void theJudgeAllowsTheCommandInsideWhereItRefusesTheWholeEnvelope() {
        Judge judge = Judges.defaults();
        for (String agent : List.of("claude_code", "gemini_cli", "codex")) {
            List<String> texts = site.captured(agent);
            String envelope = texts.get(agent.equals("codex") ? 4 : agent.equals("gemini_cli") ? 0 : 2);
            JudgeRequest inner = unwrap(agent.replace('_', '-'), envelope).orElseThrow().inner();
            assertThat(judge.judge(inner).tier()).as(agent).isEqualTo(Tier.ALLOW);
            assertThat(judge.judge(site.request(envelope)).tier()).as(agent).isNotEqualTo(Tier.ALLOW);
        }
    }

    @Test
    void aDestructiveCommandInsideIsWhatTheJudgeSeesAndDenies() {
        Judge judge = Judges.defaults();
        List<String> envelopes = List.of(
                site.captured("claude_code").get(2).replace("eval 'ls -la'", "eval 'rm -rf ~'"),
                site.captured("gemini_cli").getFirst().replace("\nls -la\n", "\nrm -rf ~\n"),
                site.captured("codex").get(4).replace("-c 'ls -la'", "-c 'rm -rf ~'"));
        List<String> agents = List.of("claude-code", "gemini-cli", "codex");
        for (int i = 0; i < agents.size(); i++) {
            JudgeRequest inner = unwrap(agents.get(i), envelopes.get(i)).orElseThrow().inner();
            assertThat(inner.command()).isEqualTo("rm -rf ~");
            assertThat(judge.judge(inner).tier()).as(agents.get(i)).isEqualTo(Tier.DENY);
        }
    }

    @Test
    void qwenCodeHasNoEnvelopeAndAnUnknownAgentNone() {
        assertThat(Envelopes.agents()).containsExactly("claude-code", "codex", "copilot-cli", "gemini-cli", "qwen-code");
        for (String text : site.captured("gemini_cli")) {
            assertThat(unwrap("qwen-code", text)).isEmpty();
            assertThat(unwrap("cursor", text)).isEmpty();
            assertThat(unwrap(null, text)).isEmpty();
        }
    }

    private Optional<Envelopes.Unwrapped> unwrap(String agent, String text) {
        return Envelopes.unwrap(agent, site.request(text));
    }
}
