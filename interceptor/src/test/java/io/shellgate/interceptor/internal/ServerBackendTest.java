package io.shellgate.interceptor.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The client's rule: run on allow, or on ask when the review says run; never on deny; no review on an
 * ask is a refusal. The replies have the server's shape (Protocol.verdict and Protocol.decision).
 */
class ServerBackendTest {

    private static Outcome reply(String json) {
        return ServerBackend.outcome(Json.object(json));
    }

    @Test
    void runsOnAllow() {
        assertThat(reply("{\"v\":1,\"tier\":\"allow\",\"rule\":\"ls\",\"message\":\"lists\"}"))
                .isEqualTo(new Outcome(true, "allow", "ls", "lists"));
    }

    @Test
    void neverRunsOnDenyWhateverTheDecisionSays() {
        assertThat(reply("{\"v\":1,\"tier\":\"deny\",\"rule\":\"r\",\"message\":\"m\",\"run\":true,\"step\":\"person\",\"decided\":\"ok\"}"))
                .isEqualTo(new Outcome(false, "deny", "r", "m"));
    }

    @Test
    void anAskRunsOnlyWhenTheReviewSaysSo() {
        assertThat(reply("{\"v\":1,\"tier\":\"ask\",\"rule\":\"r\",\"message\":\"m\",\"run\":true,\"step\":\"person\",\"decided\":\"approved\"}"))
                .isEqualTo(new Outcome(true, "ask", "r", "approved"));
        assertThat(reply("{\"v\":1,\"tier\":\"ask\",\"rule\":\"r\",\"message\":\"m\",\"run\":false,\"step\":\"timeout\",\"decided\":\"nobody answered\"}"))
                .isEqualTo(new Outcome(false, "ask", "r", "nobody answered"));
        assertThat(reply("{\"v\":1,\"tier\":\"ask\",\"rule\":\"r\",\"message\":\"m\"}"))
                .isEqualTo(new Outcome(false, "ask", "r", "needed review (m), and no reviewer approved it"));
    }

    @Test
    void errorsAndRepliesWithoutATierAreRefusals() {
        assertThat(reply("{\"v\":1,\"error\":\"policy\",\"message\":\"/x/policy.toml:1:1: bad\"}"))
                .isEqualTo(Outcome.error("policy-error", "a policy file in effect is invalid: /x/policy.toml:1:1: bad"));
        assertThat(reply("{\"v\":1,\"error\":\"internal\",\"message\":\"bug\"}").runs()).isFalse();
        assertThat(reply("{\"v\":1,\"tier\":\"maybe\"}").runs()).isFalse();
    }

    @Test
    void findsTheRunDirectoryAsTheLauncherDoes() {
        assertThat(ServerBackend.runDirectory(Map.of("SHELLGATE_RUN_DIR", "/r", "HOME", "/h"))).isEqualTo(Path.of("/r"));
        assertThat(ServerBackend.runDirectory(Map.of("XDG_STATE_HOME", "/s", "HOME", "/h"))).isEqualTo(Path.of("/s/shellgate/run"));
        assertThat(ServerBackend.runDirectory(Map.of("XDG_STATE_HOME", "relative", "HOME", "/h")))
                .isEqualTo(Path.of("/h/.local/state/shellgate/run"));
    }
}
