package io.shellgate.judge;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.shellgate.rules.Layer;
import io.shellgate.rules.Policy;
import io.shellgate.rules.PolicyException;
import io.shellgate.rules.PolicyLoader;
import io.shellgate.rules.PolicySource;
import java.util.List;
import org.junit.jupiter.api.Test;

class DefaultPolicyExamplesTest {

    /** The default policy with one user file on top. */
    private static Policy withUserFile(String name, String text) throws PolicyException {
        return PolicyLoader.load(List.of(PolicyLoader.builtIn(), new PolicySource(Layer.USER, name, text)), "/home/u");
    }

    @Test
    void everyExampleOfTheDefaultPolicyPasses() {
        assertThatCode(() -> Judges.verifyAllExamples(PolicyLoader.defaults())).doesNotThrowAnyException();
    }

    @Test
    void aUserRuleWhoseExamplesFailIsRefusedWithItsLocation() throws Exception {
        String text = """
                version = 1
                [[rule]]
                id = "no-npm-publish"
                tier = "deny"
                reason = "publishing needs a person"
                command = ["npm publish"]
                match = ["npm publish", "npm install"]
                not-match = ["npm publish --dry-run"]
                """;
        var policy = withUserFile("/home/u/.config/shellgate/policy.toml", text);
        assertThatThrownBy(() -> Judges.create(policy))
                .hasMessageContaining("policy.toml:2:1: no-npm-publish: the example \"npm install\" must match")
                .hasMessageContaining("the example \"npm publish --dry-run\" must not match");
    }

    @Test
    void aUserRuleWithPassingExamplesIsUsed() throws Exception {
        String text = """
                [[rule]]
                id = "no-npm-publish"
                tier = "deny"
                reason = "publishing needs a person"
                command = ["npm publish"]
                options-none = ["--dry-run"]
                match = ["npm publish", "npm publish --tag next"]
                not-match = ["npm publish --dry-run", "npm install"]
                """;
        var policy = withUserFile("/home/u/.config/shellgate/policy.toml", text);
        Judge judge = Judges.create(policy);
        org.assertj.core.api.Assertions.assertThat(judge.judge(JudgeRequest.of("timeout 9 npm publish", Dialect.BASH)).tier())
                .isEqualTo(io.shellgate.rules.Tier.DENY);
    }

    @Test
    void aRuleNamingAnUnknownDetectorIsRefused() throws Exception {
        String text = """
                [[rule]]
                id = "x"
                tier = "deny"
                reason = "x"
                detector = "mind-reader"
                """;
        var policy = withUserFile("/p.toml", text);
        assertThatThrownBy(() -> Judges.create(policy)).hasMessageContaining("/p.toml:1:1: rule x names the detector 'mind-reader'");
    }

    @Test
    void aReadOnlyEntryNamingAnUnknownCheckerIsRefused() throws Exception {
        String text = """
                [[read-only]]
                id = "checked"
                command = ["mytool"]
                reason = "prints"
                operands = "text"
                checker = "sedd"
                """;
        var policy = withUserFile("/p.toml", text);
        assertThatThrownBy(() -> Judges.create(policy))
                .hasMessageContaining("/p.toml:1:1: read-only entry checked names the checker 'sedd', which does not exist");
    }

    @Test
    void aReadOnlyEntryNamingAKnownCheckerLoads() {
        org.assertj.core.api.Assertions.assertThatCode(() -> Judges.create(withUserFile("/p.toml", """
                [[read-only]]
                id = "dated"
                command = ["mydate"]
                reason = "prints the date"
                operands = "text"
                checker = "date"
                """))).doesNotThrowAnyException();
    }
}
