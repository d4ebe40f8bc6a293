package io.shellgate.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The administrator's managed policy through the built launcher, from a judge server and from a
 * JVM of the client's own. The JVMs find it where the test property (set in JAVA_TOOL_OPTIONS, as
 * only whoever starts the gate's JVM can) points: a temporary root, with files of the test's user.
 */
class ManagedLayerTest {

    @TempDir
    Path dir;

    private Sandbox box;
    private Path managed;

    @BeforeEach
    void sandbox() throws Exception {
        Assumptions.assumeFalse(Files.exists(Path.of("/etc/shellgate/policy.toml"), LinkOption.NOFOLLOW_LINKS),
                "this machine has a real managed policy, which the test property never replaces");
        box = new Sandbox(dir);
        Path etc = Files.createDirectories(dir.resolve("managed-root/etc/shellgate"));
        for (Path p = etc; p.startsWith(dir); p = p.getParent()) {
            Files.setPosixFilePermissions(p, PosixFilePermissions.fromString("rwxr-xr-x"));
        }
        managed = Files.writeString(etc.resolve("policy.toml"), """
                [[rule]]
                id = "no-npm-publish"
                tier = "deny"
                reason = "publishing needs the release process"
                command = ["npm publish"]
                match = ["npm publish"]
                """);
        Files.setPosixFilePermissions(managed, PosixFilePermissions.fromString("rw-r--r--"));
        Path user = Files.createDirectories(box.home.resolve(".config/shellgate")).resolve("policy.toml");
        Files.writeString(user, """
                disable = ["no-npm-publish"]

                [[read-only]]
                id = "npm-is-fine"
                command = ["npm"]
                reason = "the user says so"
                """);
        box.env.put("JAVA_TOOL_OPTIONS", "-Dshellgate.test.managed-policy=" + managed);
    }

    @AfterEach
    void stop() throws Exception {
        box.close();
    }

    @ParameterizedTest
    @EnumSource(Sandbox.Mode.class)
    void aManagedDenyIsRefusedWhateverTheUsersPolicySays(Sandbox.Mode mode) throws Exception {
        Map<String, String> client = box.client(mode);
        Processes.Result r = box.shellgate(client, null, "-c", "npm publish");
        assertThat(r.code()).as(r.toString()).isEqualTo(126);
        assertThat(r.err()).contains("no-npm-publish");
        Processes.Result fine = box.shellgate(client, null, "-c", "echo fine");
        assertThat(fine.out()).as(fine.toString()).contains("fine");
    }

    @ParameterizedTest
    @EnumSource(Sandbox.Mode.class)
    void aManagedFileOthersCanWriteRefusesEveryCommand(Sandbox.Mode mode) throws Exception {
        Files.setPosixFilePermissions(managed, PosixFilePermissions.fromString("rw-rw-rw-"));
        Map<String, String> client = box.client(mode);
        Processes.Result r = box.shellgate(client, null, "-c", "echo should-not-run");
        assertThat(r.code()).as(r.toString()).isEqualTo(126);
        assertThat(r.out()).doesNotContain("should-not-run");
        assertThat(r.err()).contains("every command is refused").contains(managed + " is writable by");
    }
}
