package io.shellgate.judge;

import static org.assertj.core.api.Assertions.assertThat;

import io.shellgate.judge.internal.syntax.ScriptPrinter;
import io.shellgate.judge.internal.treesitter.JtreesitterBashParser;
import io.shellgate.judge.internal.treesitter.TreeSitterBashParser;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * The fast parser (direct FFM calls) and the reference parser (jtreesitter) produce the same
 * syntax tree for every corpus line.
 */
class ParserAgreementTest {

    private static final TreeSitterBashParser FAST = new TreeSitterBashParser();
    private static final JtreesitterBashParser REFERENCE = new JtreesitterBashParser();

    static List<String> lines() throws IOException {
        List<String> all = new ArrayList<>();
        CorpusCase.all().forEach(c -> all.add(c.command()));
        Path dir = ReferenceCorpusTest.corpusDir();
        if (dir != null) {
            ReferenceCorpusTest.cases(dir).forEach(c -> all.add(c.cmd()));
        }
        return all.stream().distinct().toList();
    }

    @TestFactory
    Stream<DynamicTest> bothBindingsBuildTheSameTree() throws IOException {
        return lines().stream().map(line -> DynamicTest.dynamicTest("[" + line.replace("\n", "⏎") + "]", () -> {
            String fast = ScriptPrinter.print(FAST.parse(line, 1_000_000_000L));
            String reference = ScriptPrinter.print(REFERENCE.parse(line, 0));
            assertThat(fast).isEqualTo(reference);
        }));
    }
}
