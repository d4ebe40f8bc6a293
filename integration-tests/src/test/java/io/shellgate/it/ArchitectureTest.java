package io.shellgate.it;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

/**
 * Dependencies flow one way: client <- rules <- judge <- reviewer <- launcher; interceptor uses
 * client, judge and reviewer; nothing uses launcher; no module reaches into another module's
 * internal packages. The client (the judge server protocol's, loaded by the javaagent into any JVM)
 * uses the JDK alone. No package of main code takes part in a cycle, within a module or across
 * modules: a module's API package holds the types its internal packages build on, and reaches the
 * implementation through a provider interface ({@code JudgeProvider}, {@code PolicyReader}) rather than
 * naming it.
 */
class ArchitectureTest {

    private static final JavaClasses CLASSES = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            // the modules' test jars (helpers this module's tests share) are tests too, not main code
            .withImportOption(location -> !location.contains("-tests.jar"))
            .importPackages("io.shellgate");

    @Test
    void noPackageOfMainCodeIsPartOfACycle() {
        // one slice per package: io.shellgate.judge and io.shellgate.judge.internal.syntax are two.
        slices().matching("io.shellgate.(**)").should().beFreeOfCycles()
                .check(CLASSES);
    }

    @Test
    void theProvidersAreReachedOnlyThroughTheirFactories() {
        noClasses().that().resideOutsideOfPackages("io.shellgate.judge..")
                .should().dependOnClassesThat().haveFullyQualifiedName("io.shellgate.judge.JudgeProvider")
                .check(CLASSES);
        noClasses().that().resideOutsideOfPackages("io.shellgate.rules..")
                .should().dependOnClassesThat().haveFullyQualifiedName("io.shellgate.rules.PolicyReader")
                .check(CLASSES);
    }

    @Test
    void theClientDependsOnTheJdkAlone() {
        classes().that().resideInAPackage("io.shellgate.client..")
                .should().onlyDependOnClassesThat().resideInAnyPackage("io.shellgate.client..", "java..")
                .check(CLASSES);
    }

    @Test
    void rulesDependsOnNoOtherModuleButTheClient() {
        noClasses().that().resideInAPackage("io.shellgate.rules..")
                .should().dependOnClassesThat().resideInAnyPackage("io.shellgate.judge..", "io.shellgate.reviewer..",
                        "io.shellgate.launcher..", "io.shellgate.interceptor..")
                .check(CLASSES);
    }

    @Test
    void judgeDependsOnlyOnRules() {
        noClasses().that().resideInAPackage("io.shellgate.judge..")
                .should().dependOnClassesThat().resideInAnyPackage("io.shellgate.reviewer..", "io.shellgate.launcher..",
                        "io.shellgate.interceptor..")
                .check(CLASSES);
    }

    @Test
    void reviewerDoesNotDependOnTheLauncherOrInterceptor() {
        noClasses().that().resideInAPackage("io.shellgate.reviewer..")
                .should().dependOnClassesThat().resideInAnyPackage("io.shellgate.launcher..", "io.shellgate.interceptor..")
                .check(CLASSES);
    }

    @Test
    void nothingDependsOnTheLauncher() {
        noClasses().that().resideOutsideOfPackage("io.shellgate.launcher..")
                .should().dependOnClassesThat().resideInAPackage("io.shellgate.launcher..")
                .check(CLASSES);
    }

    @Test
    void noModuleReachesIntoAnotherModulesInternals() {
        for (String module : new String[] {"client", "rules", "judge", "reviewer", "interceptor", "launcher"}) {
            noClasses().that().resideOutsideOfPackage("io.shellgate." + module + "..")
                    .should().dependOnClassesThat().resideInAPackage("io.shellgate." + module + ".internal..")
                    .allowEmptyShould(true)
                    .check(CLASSES);
        }
    }

    @Test
    void treeSitterIsUsedInOnePackageOnly() {
        noClasses().that().resideOutsideOfPackage("io.shellgate.judge.internal.treesitter..")
                .should().dependOnClassesThat().resideInAPackage("io.github.treesitter..")
                .check(CLASSES);
    }

    @Test
    void pty4jAndJnaAreUsedInOnePackageOnly() {
        noClasses().that().resideOutsideOfPackage("io.shellgate.launcher.internal.pty.os..")
                .should().dependOnClassesThat().resideInAnyPackage("com.pty4j..", "com.sun.jna..")
                .check(CLASSES);
    }
}
