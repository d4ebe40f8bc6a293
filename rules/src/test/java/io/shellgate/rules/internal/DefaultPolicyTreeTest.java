package io.shellgate.rules.internal;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.dataformat.toml.TomlMapper;
import io.shellgate.rules.PolicyLoader;
import org.junit.jupiter.api.Test;

/** The build step's JSON tree of the default policy is the TOML, and is only used for its own text. */
class DefaultPolicyTreeTest {

    @Test
    void theStoredTreeIsTheParsedToml() throws Exception {
        String text = PolicyLoader.builtIn().text();
        assertThat(DefaultPolicyTree.forText(text)).isNotNull().isEqualTo(new TomlMapper().readTree(text));
    }

    @Test
    void aTreeMadeFromOtherTextIsNotUsed() {
        String text = PolicyLoader.builtIn().text();
        assertThat(DefaultPolicyTree.forText(text + " ")).isNull();
        assertThat(DefaultPolicyTree.forText(text.replace("rm", "rn"))).isNull();
    }
}
