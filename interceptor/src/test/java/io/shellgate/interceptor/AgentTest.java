package io.shellgate.interceptor;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class AgentTest {

    @Test
    void attachingAsksForJava17AndOptionsTheAgentTakes() {
        assertThat(Agent.attachProblem("", 8)).isEqualTo("the JVM runs Java 8; the agent needs Java 17 or newer");
        assertThat(Agent.attachProblem("mode=audit,launcher=/x/shellgate", 17)).isNull();
        assertThat(Agent.attachProblem("judge=in-process", 25)).isNull();
        assertThat(Agent.attachProblem("judge=in-process", 21)).startsWith("judge=in-process needs Java 25 or newer");
        assertThat(Agent.attachProblem("mode=lenient", 21)).contains("use mode=enforce");
        assertThat(Agent.attachProblem("help", 25)).startsWith("help prints the options and stops the JVM");
    }
}
