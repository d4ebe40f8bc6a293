package io.shellgate.client;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RunDirectoryTest {

    @TempDir
    Path dir;

    @Test
    void takesTheFirstOfTheFourPlacesThatApplies() {
        assertThat(RunDirectory.locate(Map.of("SHELLGATE_RUN_DIR", "/r", "XDG_STATE_HOME", "/s", "HOME", "/h"))).isEqualTo(Path.of("/r"));
        assertThat(RunDirectory.locate(Map.of("XDG_RUNTIME_DIR", dir.toString(), "XDG_STATE_HOME", "/s")))
                .isEqualTo(dir.resolve("shellgate"));
        // a runtime directory that does not exist is passed over
        assertThat(RunDirectory.locate(Map.of("XDG_RUNTIME_DIR", dir.resolve("gone").toString(), "XDG_STATE_HOME", "/s")))
                .isEqualTo(Path.of("/s/shellgate/run"));
        assertThat(RunDirectory.locate(Map.of("HOME", "/h"))).isEqualTo(Path.of("/h/.local/state/shellgate/run"));
    }

    @Test
    void onlyAbsolutePathsCountAndTheHomeComesFromThePasswordDatabaseOtherwise() {
        Path userHome = Path.of(System.getProperty("user.home"));
        assertThat(RunDirectory.locate(Map.of("SHELLGATE_RUN_DIR", "run", "XDG_STATE_HOME", "st", "HOME", "relative")))
                .isEqualTo(userHome.resolve(".local/state/shellgate/run"));
        assertThat(RunDirectory.locate(Map.of())).isEqualTo(userHome.resolve(".local/state/shellgate/run"));
    }

    private Path privateFile(String name, String text) throws Exception {
        Path f = Files.writeString(dir.resolve(name), text);
        Files.setPosixFilePermissions(f, PosixFilePermissions.fromString("rw-------"));
        return f;
    }

    @Test
    void believesAPrivateDirectoryOfThisUsersFiles() throws Exception {
        Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwx------"));
        privateFile("server.port", "1\n");
        privateFile("server.token", "t\n");
        assertThat(new RunDirectory(dir).problem()).isNull();
    }

    @Test
    void believesNoServerWhoseFilesAreLinksOrWritableByOthers() throws Exception {
        Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwx------"));
        Path real = privateFile("elsewhere", "secret\n");
        Files.createSymbolicLink(dir.resolve("server.proof"), real);
        assertThat(new RunDirectory(dir).problem()).isEqualTo(dir.resolve("server.proof") + " is a symbolic link");
        Files.delete(dir.resolve("server.proof"));
        Path token = privateFile("server.token", "t\n");
        Files.setPosixFilePermissions(token, PosixFilePermissions.fromString("rw--w----"));
        assertThat(new RunDirectory(dir).problem()).startsWith(token + " is writable by its group");
        Files.setPosixFilePermissions(token, PosixFilePermissions.fromString("rw-------"));
        Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwx-w--wx"));
        assertThat(new RunDirectory(dir).problem()).startsWith(dir + " is writable by other users");
    }

    @Test
    void aLongRunDirectoryHasItsSocketWhereAPrivatePointerSays() throws Exception {
        Path deep = Files.createDirectories(dir.resolve("d".repeat(120)));
        RunDirectory run = new RunDirectory(deep);
        assertThat(run.socket()).isEqualTo(deep.resolve("server.sock"));
        Files.writeString(run.socketPointer(), "/tmp/sg-x/server.sock\n");
        Files.setPosixFilePermissions(run.socketPointer(), PosixFilePermissions.fromString("rw-------"));
        assertThat(run.socket()).isEqualTo(Path.of("/tmp/sg-x/server.sock"));
        // a pointer others may write is not followed
        Files.setPosixFilePermissions(run.socketPointer(), PosixFilePermissions.fromString("rw-rw-rw-"));
        assertThat(run.socket()).isEqualTo(deep.resolve("server.sock"));
    }

    @Test
    void aServerIsOlderThanTheJarWhenItsPortFileIs() throws Exception {
        RunDirectory run = new RunDirectory(dir);
        Path jar = Files.writeString(dir.resolve("shellgate.jar"), "jar");
        long built = Files.getLastModifiedTime(jar).toMillis();
        assertThat(run.olderThan(jar)).as("no server.port").isFalse();
        privateFile("server.port", "1\n");
        Files.setLastModifiedTime(run.port(), FileTime.fromMillis(built - 1000));
        assertThat(run.olderThan(jar)).isTrue();
        Files.setLastModifiedTime(run.port(), FileTime.fromMillis(built + 1000));
        assertThat(run.olderThan(jar)).isFalse();
        assertThat(run.olderThan(dir.resolve("no-jar"))).isFalse();
    }
}
