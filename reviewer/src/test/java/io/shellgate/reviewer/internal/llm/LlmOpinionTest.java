package io.shellgate.reviewer.internal.llm;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class LlmOpinionTest {

    @ParameterizedTest(name = "{0} at {1} risk, may approve {2}, max risk {3}: approves {4}")
    @CsvSource({
        "APPROVE,  LOW,    true,  MEDIUM, true",
        "APPROVE,  MEDIUM, true,  MEDIUM, false",
        "APPROVE,  HIGH,   true,  MEDIUM, false",
        "APPROVE,  MEDIUM, true,  HIGH,   true",
        "APPROVE,  HIGH,   true,  HIGH,   false",
        "APPROVE,  LOW,    true,  LOW,    false",
        "APPROVE,  LOW,    false, MEDIUM, false",
        "APPROVE,  LOW,    false, HIGH,   false",
        "REFUSE,   LOW,    true,  HIGH,   false",
        "ESCALATE, LOW,    true,  HIGH,   false",
    })
    void approvesOnlyAnApprovalBelowTheMaximumRiskWhenTheLlmMayApprove(
            Outcome outcome, Risk risk, boolean mayApprove, Risk maxRisk, boolean approves) {
        LlmConfig config = LlmConfig.of(Provider.OLLAMA, URI.create("http://localhost:11434"), "m", "")
                .withMayApprove(mayApprove)
                .withMaxRisk(maxRisk);

        assertThat(new LlmOpinion(outcome, risk, "why").approves(config)).isEqualTo(approves);
    }

    @org.junit.jupiter.api.Test
    void anEscalationIsHighRiskAndNeverApproves() {
        LlmConfig config = LlmConfig.of(Provider.OLLAMA, URI.create("http://localhost:11434"), "m", "")
                .withMayApprove(true)
                .withMaxRisk(Risk.HIGH);

        assertThat(LlmOpinion.escalate("timeout")).isEqualTo(new LlmOpinion(Outcome.ESCALATE, Risk.HIGH, "timeout"));
        assertThat(LlmOpinion.escalate("timeout").approves(config)).isFalse();
    }
}
