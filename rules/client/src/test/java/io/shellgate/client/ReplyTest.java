package io.shellgate.client;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Run only on allow, or on ask with the review's run; never on deny; anything else is no answer. */
class ReplyTest {

    private static final String PROOF = "a".repeat(64);

    @Test
    void runsOnAllowAndOnAnAskTheReviewApprovedOnly() {
        assertThat(((Reply.Verdict) Reply.parse("{\"v\":1,\"tier\":\"allow\",\"rule\":\"ls\",\"message\":\"lists\"}")).mayRun()).isTrue();
        Reply.Verdict approved = (Reply.Verdict) Reply.parse(
                "{\"v\":1,\"tier\":\"ask\",\"rule\":\"r\",\"message\":\"m\",\"run\":true,\"step\":\"person\",\"decided\":\"approved\"}");
        assertThat(approved).isEqualTo(new Reply.Verdict("ask", "r", "m", true, "person", "approved", null, null, null));
        assertThat(approved.mayRun()).isTrue();
        Reply.Verdict unreviewed = (Reply.Verdict) Reply.parse("{\"v\":1,\"tier\":\"ask\",\"rule\":\"r\",\"message\":\"m\"}");
        assertThat(unreviewed.mayRun()).isFalse();
        assertThat(unreviewed.sentence()).isEqualTo("needed review (m), and no reviewer approved it");
        assertThat(((Reply.Verdict) Reply.parse("{\"v\":1,\"tier\":\"ask\",\"rule\":\"r\",\"message\":\"m\",\"run\":\"true\"}")).mayRun())
                .as("run must be the JSON true").isFalse();
    }

    @Test
    void neverRunsOnDenyWhateverElseTheReplySays() {
        Reply.Verdict deny = (Reply.Verdict) Reply.parse(
                "{\"v\":1,\"tier\":\"deny\",\"rule\":\"r\",\"message\":\"m\",\"run\":true,\"step\":\"person\",\"decided\":\"ok\"}");
        assertThat(deny.mayRun()).isFalse();
        assertThat(deny.sentence()).isEqualTo("m");
    }

    @Test
    void errorsUnknownTiersAndOtherVersionsAreNoVerdict() {
        assertThat(Reply.parse("{\"v\":1,\"error\":\"policy\",\"message\":\"/p.toml:1:1: bad\"}"))
                .isEqualTo(new Reply.ServerError("policy", "/p.toml:1:1: bad"));
        assertThat(new Reply.ServerError("policy", "x").isFinal()).isTrue();
        assertThat(new Reply.ServerError("busy", "x").isFinal()).isFalse();
        assertThat(new Reply.ServerError("busy", "x").rule()).isEqualTo("judge-error");
        assertThat(Reply.parse("{\"v\":1,\"tier\":\"maybe\"}")).isInstanceOf(Reply.NoAnswer.class);
        assertThat(Reply.parse("{\"v\":2,\"tier\":\"allow\"}")).isInstanceOf(Reply.NoAnswer.class);
        assertThat(Reply.parse("allow")).isInstanceOf(Reply.NoAnswer.class);
        assertThat(Reply.parse("{\"v\":1,\"tier\":\"allow\"} x")).isInstanceOf(Reply.NoAnswer.class);
    }

    @Test
    void onTcpAReplyWithoutTheProofIsNoAnswerInterimLinesIncluded() {
        String allow = "{\"v\":1,\"tier\":\"allow\",\"rule\":\"r\",\"message\":\"m\",\"proof\":\"" + PROOF + "\"}";
        assertThat(Reply.parse(allow, PROOF)).isInstanceOf(Reply.Verdict.class);
        assertThat(Reply.parse(allow, "b".repeat(64))).isInstanceOf(Reply.NoAnswer.class);
        assertThat(Reply.parse("{\"v\":1,\"tier\":\"allow\",\"rule\":\"r\",\"message\":\"m\"}", PROOF)).isInstanceOf(Reply.NoAnswer.class);
        assertThat(Reply.parse("{\"v\":1,\"pending\":\"llm\",\"seconds\":13,\"proof\":\"" + PROOF + "\"}", PROOF))
                .isEqualTo(new Reply.Pending("llm", 13));
        assertThat(Reply.parse("{\"v\":1,\"pending\":\"llm\",\"seconds\":13}", PROOF)).isInstanceOf(Reply.NoAnswer.class);
    }

    @Test
    void readsHookAnswersPongsAndInterimLines() {
        assertThat(Reply.parse("{\"v\":1,\"exit\":2,\"stdout\":\"\",\"stderr\":\"no\\n\"}")).isEqualTo(new Reply.HookAnswer(2, "", "no\n"));
        assertThat(Reply.parse("{\"v\":1,\"pong\":true,\"pid\":42}")).isEqualTo(new Reply.Pong(42));
        assertThat(Reply.parse("{\"v\":1,\"stopping\":true}")).isEqualTo(new Reply.Stopping());
        assertThat(new Reply.Pending("person", 900).waitMillis()).isEqualTo(Reply.MAX_WAIT_MILLIS);
        assertThat(Reply.parse("{\"v\":1,\"pending\":\"llm\",\"seconds\":-1}")).isInstanceOf(Reply.NoAnswer.class);
    }
}
