package io.shellgate.reviewer.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.shellgate.rules.Layer;
import io.shellgate.rules.PolicyLoader;
import io.shellgate.rules.PolicySource;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ApprovalWriterTest {

    @TempDir
    Path dir;

    private List<String> ids(Path file) throws Exception {
        return PolicyLoader.load(List.of(PolicyLoader.builtIn(), new PolicySource(Layer.USER, file.toString(),
                Files.readString(file))), dir.toString()).review().approvals().stream().map(a -> a.id()).toList();
    }

    @Test
    void anAppendedApprovalIsRemovedWithItsCommentAndTheRestStays() throws Exception {
        Path file = dir.resolve("policy.toml");
        Files.writeString(file, """
                version = 1
                # my own comment
                [[read-only]]
                id = "my-tool"
                command = ["mytool"]
                reason = "prints"
                operands = "none"
                match = ["mytool"]
                """);
        String first = ApprovalWriter.appendExact(file, "touch a", null, "me", dir.toString(), null);
        String second = ApprovalWriter.appendExact(file, "touch \"b\"", "/p", "me", dir.toString(), null);
        assertThat(ids(file)).containsExactly(first, second);
        ApprovalWriter.remove(file, first, dir.toString());
        String text = Files.readString(file);
        assertThat(ids(file)).containsExactly(second);
        assertThat(text).contains("# my own comment").contains("id = \"my-tool\"").doesNotContain(first)
                .doesNotContain("touch a\"").contains("command = \"touch \\\"b\\\"\"");
        assertThat(text.lines().filter(l -> l.startsWith("# approved ")).count()).isEqualTo(1);
        ApprovalWriter.remove(file, second, dir.toString());
        assertThat(ids(file)).isEmpty();
        assertThat(Files.readString(file)).contains("[[read-only]]").doesNotContain("[[approved]]");
    }

    @Test
    void anIdThatIsNotATableOfTheFileIsAnErrorAndTheFileIsUntouched() throws Exception {
        Path file = dir.resolve("policy.toml");
        String text = """
                version = 1
                [[approved]]
                id = "kept"
                command = "touch x"
                """;
        Files.writeString(file, text);
        assertThatThrownBy(() -> ApprovalWriter.remove(file, "other", dir.toString()))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("no [[approved]] table with id = \"other\"");
        assertThat(Files.readString(file)).isEqualTo(text);
        // an id that only appears in another table's value is not that table's
        assertThatThrownBy(() -> ApprovalWriter.remove(file, "touch x", dir.toString()))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
