package io.shellgate.interceptor.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class AgentOptionsTest {

    @Test
    void theArgumentStringWinsOverTheEnvironment() {
        assertThat(AgentOptions.parse("mode=audit,launcher=/x/shellgate", "mode=enforce,policy=/p.toml"))
                .isEqualTo(new AgentOptions(false, "/p.toml", true, "auto", "/x/shellgate"));
    }

    @Test
    void defaultsEnforceWithTheJudgeChosenByTheJvm() {
        assertThat(AgentOptions.parse(null, null)).isEqualTo(new AgentOptions(false, null, false, "auto", null));
    }

    @Test
    void refusesWhatItDoesNotKnow() {
        assertThatThrownBy(() -> AgentOptions.parse("mode=lenient", null)).hasMessageContaining("mode=enforce");
        assertThatThrownBy(() -> AgentOptions.parse("polcy=/x", null)).hasMessageContaining("unknown option 'polcy=/x'");
        assertThatThrownBy(() -> AgentOptions.parse("policy=", null)).hasMessageContaining("needs a value");
        assertThatThrownBy(() -> AgentOptions.parse(null, "jugde=x")).hasMessageContaining("$SHELLGATE_AGENT_OPTIONS");
    }
}
