package io.shellgate.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The launcher's AOT cache: made in the background on first use from a training run (the
 * drop-in shell's request, then a private judge server answering thousands of requests), used by
 * the judge server it then starts, and harmless when it is damaged. The training must never write
 * into the user's state or leave its directory behind.
 */
class AotCacheTest extends SandboxTest {

    private static final String SHELL_REQUEST =
            "{\"v\":1,\"op\":\"judge\",\"cmd\":\"ls\",\"cwd\":\"/\",\"dialect\":\"bash\",\"env\":{\"PATH\":\"/usr/bin:/bin\"}}";

    private Path cache;
    private Instant start;

    @BeforeEach
    void ownCache() throws Exception {
        // a cache of this test's own: the shared one may have been made by an earlier test
        cache = dir.resolve("cache");
        box.env.put("SHELLGATE_CACHE_DIR", cache.toString());
        start = Instant.now();
    }

    /** The cache file once the background run has made it and let go of its lock, up to two minutes. */
    private Path awaitCache() throws Exception {
        long deadline = System.nanoTime() + Duration.ofMinutes(2).toNanos();
        while (System.nanoTime() < deadline) {
            Path aot = cache.resolve("aot");
            if (Files.isDirectory(aot)) {
                try (Stream<Path> files = Files.list(aot)) {
                    List<Path> all = files.toList();
                    List<Path> caches = all.stream().filter(p -> p.getFileName().toString().endsWith(".aot")).toList();
                    if (caches.size() == 1 && all.size() == 1) {
                        return caches.get(0);
                    }
                }
            }
            Thread.sleep(100);
        }
        throw new AssertionError("no AOT cache was made in " + cache);
    }

    /** Training directories made since the test began that are still there. */
    private List<Path> trainingLeftovers() throws Exception {
        Path tmp = Path.of(System.getProperty("java.io.tmpdir"));
        try (Stream<Path> files = Files.list(tmp)) {
            return files.filter(p -> p.getFileName().toString().startsWith("shellgate-aot-")).filter(p -> {
                try {
                    return Files.readAttributes(p, BasicFileAttributes.class).creationTime()
                            .compareTo(FileTime.from(start.minusSeconds(1))) >= 0;
                } catch (Exception e) {
                    return false;
                }
            }).toList();
        }
    }

    @Test
    void theFirstUseMakesACacheThatTheJudgeServerThenMaps() throws Exception {
        // no server on demand: the one this test starts must be the first, after the cache is made
        Map<String, String> noServer = new HashMap<>(box.env);
        noServer.put("SHELLGATE_NO_SERVER", "1");
        Processes.Result first = box.shellgate(noServer, null, "-c", "true");
        assertThat(first.code()).as(first.toString()).isZero();
        assertThat(first.err()).isEmpty();
        Path aot = awaitCache();
        // the training's judge server, audit log and policies were in a directory of its own
        assertThat(trainingLeftovers()).isEmpty();
        Path audit = box.home.resolve(".local/state/shellgate/audit.jsonl");
        if (Files.exists(audit)) {
            assertThat(Files.readString(audit)).doesNotContain("aot-training");
        }
        Process server = box.startServer();
        String cmdline = Files.readString(Path.of("/proc/" + server.pid() + "/cmdline"), StandardCharsets.UTF_8);
        assertThat(cmdline).contains("-XX:AOTCache=" + aot);
        // mapped, not just named: a cache the JVM rejects is closed again
        assertThat(Files.readString(Path.of("/proc/" + server.pid() + "/maps"))).contains(aot.toString());
    }

    @Test
    void theTrainingAnswersItsRequestsAndLeavesNothingBehind() throws Exception {
        // as the background run does it, but in the foreground (and without starting one of those)
        box.env.put("SHELLGATE_NO_AOT", "1");
        Processes.Result r = box.shellgate("__aot-training", SHELL_REQUEST);
        assertThat(r.code()).as(r.toString()).isZero();
        assertThat(r.out()).isEmpty();
        assertThat(r.err()).isEmpty();
        assertThat(trainingLeftovers()).isEmpty();
        assertThat(box.home.resolve(".local/state/shellgate/audit.jsonl")).doesNotExist();
        assertThat(box.home.resolve(".local/state/shellgate/approvals.toml")).doesNotExist();
    }

    @Test
    void aLockLeftByAKilledRunStopsTheCacheOnlyForTenMinutes() throws Exception {
        Map<String, String> noServer = new HashMap<>(box.env);
        noServer.put("SHELLGATE_NO_SERVER", "1");
        // the lock a background run holds while it makes the cache, named as the launcher names it
        assertThat(box.shellgate(noServer, null, "-c", "true").code()).isZero();
        Path made = awaitCache();
        Path lock = made.resolveSibling(made.getFileName() + ".lock");
        Files.delete(made);
        Files.createDirectory(lock);
        // a recent lock: another run is making the cache, so this one does not start a second
        assertThat(box.shellgate(noServer, null, "-c", "true").code()).isZero();
        Thread.sleep(1000);
        assertThat(ProcessHandle.allProcesses().filter(h -> h.info().arguments()
                .map(a -> String.join(" ", a).contains("-XX:AOTCacheOutput=" + made)).orElse(false))).isEmpty();
        assertThat(lock).isDirectory();
        // a lock older than ten minutes was left by a run that died: the next use makes the cache
        Files.setLastModifiedTime(lock, FileTime.from(Instant.now().minus(Duration.ofMinutes(11))));
        assertThat(box.shellgate(noServer, null, "-c", "true").code()).isZero();
        assertThat(awaitCache()).isEqualTo(made);
    }

    @Test
    void aDamagedCacheIsPassedOverInSilence() throws Exception {
        assertThat(box.shellgate("-c", "true").code()).isZero();
        Path aot = awaitCache();
        byte[] bytes = Files.readAllBytes(aot);
        Files.write(aot, java.util.Arrays.copyOf(bytes, bytes.length / 3));
        box.env.put("SHELLGATE_NO_SERVER", "1");
        Processes.Result r = box.shellgate("-c", "echo still here");
        assertThat(r.code()).as(r.toString()).isZero();
        assertThat(r.out()).isEqualTo("still here\n");
        assertThat(r.err()).isEmpty();
    }
}
