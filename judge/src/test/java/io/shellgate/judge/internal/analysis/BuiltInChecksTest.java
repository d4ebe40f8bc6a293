package io.shellgate.judge.internal.analysis;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** The one registry of checkers and the list a policy author reads are the same list. */
class BuiltInChecksTest {

    @Test
    void docsPolicyNamesEveryCheckerThePolicyMayGiveAndNoOther() throws Exception {
        String doc = Files.readString(Path.of("..", "docs", "policy.md"));
        int start = doc.indexOf("`checker` (a");
        assertThat(start).as("docs/policy.md describes `checker`").isPositive();
        int end = doc.indexOf("**`[[wrapper]]`**", start);
        Set<String> documented = new TreeSet<>();
        Matcher m = Pattern.compile("`([a-z][a-z-]*)`").matcher(doc.substring(start + "`checker`".length(), end));
        while (m.find()) {
            documented.add(m.group(1));
        }
        documented.remove("mvn");
        assertThat(documented).isEqualTo(new TreeSet<>(BuiltInChecks.ALL.checkerNames()));
    }
}
