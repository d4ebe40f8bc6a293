package io.shellgate.client;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ServerStartsTest {

    @TempDir
    Path dir;

    @Test
    void oneStartEveryTenSecondsBetweenAllClients() throws Exception {
        RunDirectory run = new RunDirectory(dir);
        assertThat(ServerStarts.claim(run, 1000)).isTrue();
        assertThat(Files.readString(run.starting())).isEqualTo("1000\n");
        assertThat(ServerStarts.claim(run, 1009)).isFalse();
        assertThat(ServerStarts.claim(run, 1010)).isTrue();
    }

    @Test
    void aRecordOthersMayWriteHoldsNoStartOff() throws Exception {
        RunDirectory run = new RunDirectory(dir);
        Files.writeString(run.starting(), "1000\n");
        Files.setPosixFilePermissions(run.starting(), PosixFilePermissions.fromString("rw-rw-rw-"));
        assertThat(ServerStarts.claim(run, 1001)).isTrue();
    }

    @Test
    void aRecordThatIsALinkIsNeitherBelievedNorWrittenThrough() throws Exception {
        RunDirectory run = new RunDirectory(dir);
        Path target = Files.writeString(dir.resolve("target"), "1000\n");
        Files.createSymbolicLink(run.starting(), target);
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> ServerStarts.claim(run, 1001)).isInstanceOf(java.io.IOException.class);
        assertThat(Files.readString(target)).isEqualTo("1000\n");
    }
}
