package io.shellgate.judge.internal.powershell;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The binder against binding examples PowerShell's documentation states ({@code binding-examples.tsv}:
 * the command, then each parameter with what binds to it, or {@code !} for PowerShell's binding error).
 */
class PsBindingTest {

    static Stream<Arguments> examples() throws IOException {
        List<Arguments> out = new ArrayList<>();
        try (InputStream in = PsBindingTest.class.getResourceAsStream("binding-examples.tsv")) {
            for (String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
                if (!line.isBlank() && !line.startsWith("#")) {
                    String[] f = line.split("\t");
                    out.add(Arguments.of(f[0], f[1], f.length > 2 ? f[2] : ""));
                }
            }
        }
        assertThat(out).hasSizeGreaterThanOrEqualTo(40);
        return out.stream();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("examples")
    void bindsAsPowerShellDocumentsIt(String command, String expected, String source) {
        assertThat(render(command)).as(source).isEqualTo(expected);
    }

    @Test
    void theParameterDataNamesThePowerShellItWasTakenFrom() throws IOException {
        try (InputStream in = PsCmdlets.class.getResourceAsStream("cmdlet-parameters.tsv")) {
            String text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            assertThat(text).containsPattern("# Source: v7\\.[0-9.]+\\S* \\(commit [0-9a-f]{40}\\)")
                    .contains("judge/tools/ps-cmdlet-metadata.py");
        }
        assertThat(PsCmdlets.get("Get-Content").resolve("PSPa").param().name()).isEqualTo("LiteralPath");
        assertThat(PsCmdlets.get("Get-Content").resolve("UseTx").param().name()).isEqualTo("UseTransaction");
        assertThat(PsCmdlets.get("Get-Content").resolve("p").ambiguous()).contains("Path", "PipelineVariable");
    }

    @Test
    void pipelineObjectsBindByPropertyNameAsTheMetadataSays() {
        PsCmdlets.Cmdlet gc = PsCmdlets.get("Get-Content");
        // about_Parameters: LiteralPath takes pipeline input by property name, its aliases PSPath and LP included
        assertThat(PsBinding.byPropertyName(gc, Map.of("pspath", List.of("a")), Set.of())).isEqualTo(Map.of("LiteralPath", List.of("a")));
        assertThat(PsBinding.byPropertyName(gc, Map.of("lp", List.of("a")), Set.of())).isEqualTo(Map.of("LiteralPath", List.of("a")));
        assertThat(PsBinding.byPropertyName(gc, Map.of("path", List.of("p")), Set.of())).isEqualTo(Map.of("Path", List.of("p")));
        // Tail's alias Last, TotalCount's alias First: non-path parameters bind by property name too
        assertThat(PsBinding.byPropertyName(gc, Map.of("last", List.of("5"), "first", List.of("2")), Set.of()))
                .isEqualTo(Map.of("Tail", List.of("5"), "TotalCount", List.of("2")));
        // FullName names no parameter of Get-Content; Filter and Encoding do not take pipeline input: they bind nowhere
        assertThat(PsBinding.byPropertyName(gc, Map.of("fullname", List.of("a"), "filter", List.of("b"), "encoding", List.of("c")),
                Set.of())).isEmpty();
        // no prefixes: PSPat names no property binding
        assertThat(PsBinding.byPropertyName(gc, Map.of("pspat", List.of("a")), Set.of())).isEmpty();
        // a parameter given on the command line is not bound again from the pipeline
        assertThat(PsBinding.byPropertyName(gc, Map.of("path", List.of("p"), "pspath", List.of("a")), Set.of("Path")))
                .isEqualTo(Map.of("LiteralPath", List.of("a")));
        // Select-String's Path takes pipeline input by property name, its Pattern does not
        assertThat(PsBinding.byPropertyName(PsCmdlets.get("Select-String"), Map.of("path", List.of("p"), "pattern", List.of("x")),
                Set.of())).isEqualTo(Map.of("Path", List.of("p")));
        // Credential binds by property name: an object can hand a cmdlet credentials
        assertThat(PsBinding.byPropertyName(PsCmdlets.get("Test-Path"), Map.of("credential", List.of("c")), Set.of()))
                .isEqualTo(Map.of("Credential", List.of("c")));
    }

    private static String render(String command) {
        PsAst.Pipeline p = (PsAst.Pipeline) PsParser.parse(command, false).statements().getFirst();
        PsAst.CommandCall c = (PsAst.CommandCall) p.elements().getFirst();
        PsCmdlets.Cmdlet spec = PsCmdlets.get(((PsAst.Literal) c.name()).value());
        PsBinding b = PsBinding.bind(spec, c, command);
        if (!b.problems.isEmpty()) {
            return "!";
        }
        Map<String, List<String>> sorted = new TreeMap<>();
        b.values.forEach((param, exprs) -> sorted.put(param, exprs.stream().map(e -> e.span().of(command)).toList()));
        List<String> parts = new ArrayList<>();
        sorted.forEach((param, texts) -> parts.add(param + "=" + String.join(" ", texts)));
        b.options.stream().filter(o -> !b.values.containsKey(o.substring(1))).sorted().forEach(parts::add);
        return String.join("; ", parts);
    }
}
