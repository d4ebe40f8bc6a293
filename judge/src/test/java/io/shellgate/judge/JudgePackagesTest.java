package io.shellgate.judge;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The judge's internal packages depend on each other one way: no cycle among them, and the analysis
 * packages in the order {@code language}, {@code model} before {@code host}, {@code options},
 * {@code policy}, {@code walk}, then {@code builtins} and {@code nested}, and {@code programs} beside them, with
 * the engine and the registry of checks at the root of {@code analysis}.
 */
class JudgePackagesTest {

    private static final String ANALYSIS = "io.shellgate.judge.internal.analysis";

    private static final JavaClasses CLASSES = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("io.shellgate.judge");

    /** Each analysis package and the analysis packages it may use; the root ("") may use them all. */
    private static final Map<String, List<String>> MAY_USE = new LinkedHashMap<>();

    static {
        MAY_USE.put("language", List.of());
        MAY_USE.put("model", List.of());
        MAY_USE.put("host", List.of("language", "model"));
        MAY_USE.put("options", List.of("language", "model"));
        MAY_USE.put("policy", List.of("language", "model", "host", "options"));
        MAY_USE.put("walk", List.of("language", "model", "host", "options", "policy"));
        MAY_USE.put("builtins", List.of("language", "model", "host", "options", "policy", "walk"));
        MAY_USE.put("nested", List.of("language", "model", "host", "options", "policy", "walk", "builtins"));
        // a program's grammar sees the walk only through CheckContext, and neither the builtins nor the nested shells
        MAY_USE.put("programs", List.of("language", "model", "host", "options", "policy", "walk"));
    }

    @Test
    void internalPackagesAreFreeOfCycles() {
        slices().matching("io.shellgate.judge.internal.(**)").should().beFreeOfCycles().check(CLASSES);
    }

    @Test
    void analysisPackagesUseOnlyThePackagesBeforeThem() {
        for (Map.Entry<String, List<String>> e : MAY_USE.entrySet()) {
            List<String> forbidden = MAY_USE.keySet().stream()
                    .filter(p -> !p.equals(e.getKey()) && !e.getValue().contains(p))
                    .map(p -> ANALYSIS + "." + p + "..")
                    .collect(java.util.stream.Collectors.toCollection(java.util.ArrayList::new));
            // the root package holds the engine and the registry, which use everything
            forbidden.add(ANALYSIS);
            noClasses().that().resideInAPackage(ANALYSIS + "." + e.getKey() + "..")
                    .should().dependOnClassesThat().resideInAnyPackage(forbidden.toArray(String[]::new))
                    .check(CLASSES);
        }
    }

    @Test
    void programChecksSeeTheJudgementOnlyThroughCheckContext() {
        noClasses().that().resideInAPackage(ANALYSIS + ".programs..")
                .should().dependOnClassesThat().haveFullyQualifiedName(ANALYSIS + ".walk.Analyzer")
                .check(CLASSES);
    }

    @Test
    void everyAnalysisPackageHasAPlaceInTheOrder() {
        List<String> packages = CLASSES.stream()
                .map(c -> c.getPackageName())
                .filter(p -> p.startsWith(ANALYSIS + "."))
                .map(p -> p.substring(ANALYSIS.length() + 1).split("\\.")[0])
                .distinct().sorted().toList();
        assertThat(packages).containsExactlyInAnyOrderElementsOf(MAY_USE.keySet());
    }
}
