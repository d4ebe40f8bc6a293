package io.shellgate.reviewer.internal.llm;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ServiceLoader;
import org.junit.jupiter.api.Test;
import org.slf4j.spi.SLF4JServiceProvider;

/** LangChain4j logs through SLF4J, which prints warnings on stderr when it finds no provider. */
class QuietLoggingTest {

    @Test
    void slf4jFindsExactlyOneProviderAndItIsTheSilentOne() {
        assertThat(ServiceLoader.load(SLF4JServiceProvider.class).stream().map(p -> p.type().getName()))
                .containsExactly("org.slf4j.nop.NOPServiceProvider");
    }
}
