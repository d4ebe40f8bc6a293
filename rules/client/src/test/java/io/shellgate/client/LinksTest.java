package io.shellgate.client;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Where a write lands, on a real file system with real links. */
class LinksTest {

    @TempDir
    Path dir;

    @Test
    void followsLinksNameByNameAsTheKernelDoes() throws Exception {
        Path gate = Files.createDirectories(dir.resolve("gate"));
        Path work = Files.createDirectories(dir.resolve("work"));
        Files.createSymbolicLink(work.resolve("to-gate"), gate);
        Files.createSymbolicLink(work.resolve("relative"), Path.of("../gate/policy.toml"));
        Files.createSymbolicLink(work.resolve("dangling"), gate.resolve("new.toml"));
        assertThat(Links.landing(work.resolve("to-gate/policy.toml"))).isEqualTo(gate.resolve("policy.toml"));
        assertThat(Links.landing(work.resolve("relative"))).isEqualTo(gate.resolve("policy.toml"));
        assertThat(Links.landing(work.resolve("dangling"))).isEqualTo(gate.resolve("new.toml"));
        // .. after a link is taken from where the link led, not lexically
        assertThat(Links.landing(work.resolve("to-gate/../work/x"))).isEqualTo(work.resolve("x"));
        assertThat(Links.landing(work.resolve("plain/./file"))).isEqualTo(work.resolve("plain/file"));
    }

    @Test
    void aLoopOfLinksLandsNowhere() throws Exception {
        Files.createSymbolicLink(dir.resolve("a"), dir.resolve("b"));
        Files.createSymbolicLink(dir.resolve("b"), dir.resolve("a"));
        assertThat(Links.landing(dir.resolve("a/file"))).isNull();
    }
}
