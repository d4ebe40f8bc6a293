package io.shellgate.judge.internal.analysis.host;

import static org.assertj.core.api.Assertions.assertThat;

import io.shellgate.judge.Dialect;
import io.shellgate.judge.JudgeRequest;
import io.shellgate.judge.Judges;
import io.shellgate.judge.Verdict;
import java.lang.reflect.RecordComponent;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The memo's key compares requests field by field: every field, and only an equal request finds a verdict. */
class VerdictMemoTest {

    private static final Path CWD = Path.of("/home/u");
    private static final Map<String, String> ENV = Map.of("PATH", "/usr/bin:/bin");

    @Test
    void theKeyComparesEveryFieldOfARequest() {
        // a field added to JudgeRequest must be compared too, or two requests differing only there would share a verdict
        assertThat(Arrays.stream(JudgeRequest.class.getRecordComponents()).map(RecordComponent::getName))
                .containsExactlyElementsOf(VerdictMemo.COMPARED);
    }

    @Test
    void aRequestDifferentInAnyOneFieldFindsNothing() {
        JudgeRequest request = new JudgeRequest("/bin/a b", Dialect.BASH, CWD, ENV, List.of(), true);
        Verdict verdict = Judges.defaults().judge(request);
        VerdictMemo memo = new VerdictMemo();
        memo.remember(request, verdict, List.of());
        assertThat(memo.recall(new JudgeRequest("/bin/a b", Dialect.BASH, CWD, Map.copyOf(ENV), List.of(), true), null))
                .isSameAs(verdict);
        List<JudgeRequest> others = List.of(
                new JudgeRequest("/bin/a c", Dialect.BASH, CWD, ENV, List.of(), true),
                new JudgeRequest("/bin/a b", Dialect.ZSH, CWD, ENV, List.of(), true),
                new JudgeRequest("/bin/a b", Dialect.BASH, Path.of("/tmp"), ENV, List.of(), true),
                new JudgeRequest("/bin/a b", Dialect.BASH, CWD, Map.of("PATH", "/usr/bin:/bin", "K", "v"), List.of(), true),
                new JudgeRequest("/bin/a b", Dialect.BASH, CWD, ENV, null, true),
                new JudgeRequest("/bin/a b", Dialect.BASH, CWD, ENV, List.of(), false),
                // the same text as an argument vector
                JudgeRequest.ofArgv(List.of("/bin/a", "b"), CWD, ENV));
        assertThat(others.getLast().command()).isEqualTo(request.command());
        for (JudgeRequest other : others) {
            assertThat(memo.recall(other, null)).as(other.toString()).isNull();
        }
    }
}
