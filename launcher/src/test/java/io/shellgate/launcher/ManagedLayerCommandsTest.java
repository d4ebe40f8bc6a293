package io.shellgate.launcher;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.shellgate.rules.ManagedPolicy;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code policy show}, {@code doctor} and {@code check} with a managed policy in a temporary root
 * (the JVM property {@link ManagedPolicy#TEST_PROPERTY} points there; the file is the test user's).
 */
class ManagedLayerCommandsTest {

    private static final String MANAGED = """
            [managed]
            remembered-approvals = false

            [[rule]]
            id = "no-npm-publish"
            tier = "deny"
            reason = "publishing needs the release process"
            command = ["npm publish"]
            match = ["npm publish"]
            """;

    @TempDir
    Path dir;

    private Path managed;
    private Path given;

    @BeforeEach
    void managedFile() throws Exception {
        Assumptions.assumeFalse(Files.exists(ManagedPolicy.PATH, LinkOption.NOFOLLOW_LINKS),
                "this machine has a real managed policy, which the test property never replaces");
        Path etc = Files.createDirectories(dir.resolve("root/etc/shellgate"));
        for (Path p = etc; p.startsWith(dir); p = p.getParent()) {
            Files.setPosixFilePermissions(p, PosixFilePermissions.fromString("rwxr-xr-x"));
        }
        managed = Files.writeString(etc.resolve("policy.toml"), MANAGED);
        Files.setPosixFilePermissions(managed, PosixFilePermissions.fromString("rw-r--r--"));
        given = Files.writeString(dir.resolve("given.toml"), "disable = [\"no-npm-publish\"]\n");
        System.setProperty(ManagedPolicy.TEST_PROPERTY, managed.toString());
    }

    @AfterEach
    void noManagedFile() {
        System.clearProperty(ManagedPolicy.TEST_PROPERTY);
    }

    @Test
    void policyShowSaysWhatTheManagedLayerFixedAndWhereEachRuleComesFrom() throws Exception {
        MainTest.Run show = MainTest.run("", "policy", "show", "--policy", given.toString());
        assertThat(show.code()).isZero();
        assertThat(show.out()).contains("managed: " + managed)
                .contains("managed: " + managed + ": later layers may tighten it, never loosen it")
                .contains("managed: remembered approvals are off")
                .containsPattern("no-npm-publish +publishing needs the release process +\\[managed " + managed + ":4:1\\]")
                .containsPattern("rm-recursive-critical .*\\[default ")
                .contains("the managed policy " + managed + " may only be tightened");
        JsonNode json = new ObjectMapper().readTree(MainTest.run("", "policy", "show", "--json", "--policy",
                given.toString()).out());
        assertThat(json.path("managed").path("file").asText()).isEqualTo(managed.toString());
        assertThat(json.path("managed").path("remembered-approvals").asBoolean(true)).isFalse();
    }

    @Test
    void doctorShowsTheManagedLayerAndItsRules() {
        MainTest.Run doctor = MainTest.run("", "doctor", "--policy", given.toString());
        assertThat(doctor.out()).contains("managed:  " + managed + ": later layers may tighten it, never loosen it")
                .contains("deny no-npm-publish from managed " + managed + ":4:1")
                .contains("managed: " + managed);
    }

    @Test
    void aManagedDenyHoldsAgainstAPolicyThatDisablesIt() {
        assertThat(MainTest.run("", "check", "--policy", given.toString(), "--", "npm publish").code()).isEqualTo(20);
    }

    @Test
    void aManagedFileOthersCanWriteRefusesEveryCommand() throws Exception {
        Files.setPosixFilePermissions(managed, PosixFilePermissions.fromString("rw-rw-rw-"));
        MainTest.Run r = MainTest.run("", "check", "--", "ls");
        assertThat(r.code()).isEqualTo(3);
        assertThat(r.err()).contains(managed + ": the managed policy is not used and every command is refused")
                .contains("is writable by");
    }
}
