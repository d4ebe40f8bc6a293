package io.shellgate.interceptor.internal;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class GateTest {

    @Test
    void aSecondAgentCanTurnAuditIntoEnforceButNotBack() {
        Gate.configure(AgentOptions.parse("mode=audit,policy=/p.toml", null), null);
        assertThat(Gate.enforce()).isTrue();
        assertThat(Gate.options()).isEqualTo(new AgentOptions(false, "/p.toml", false, "auto", null));
        assertThat(Gate.enforce()).isFalse();
        Gate.configure(AgentOptions.parse(null, null), null);
        assertThat(Gate.enforce()).isFalse();
    }
}
