package io.shellgate.reviewer.internal;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.shellgate.rules.Approval;
import io.shellgate.rules.JsonTrees;
import io.shellgate.rules.Layer;
import io.shellgate.rules.Policy;
import io.shellgate.rules.PolicyLoader;
import io.shellgate.rules.PolicySource;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The audit log and policy files written by many processes at once, as real JVMs do. */
class SharedFilesTest {

    private static final int PROCESSES = 6;

    @TempDir
    Path dir;

    private static List<Process> start(String... args) throws Exception {
        List<Process> started = new ArrayList<>();
        for (int p = 0; p < PROCESSES; p++) {
            List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                    "-cp", System.getProperty("java.class.path"), Appender.class.getName()));
            for (String a : args) {
                command.add(a.replace("TAG", "p" + p));
            }
            started.add(new ProcessBuilder(command).redirectErrorStream(true).start());
        }
        for (Process p : started) {
            assertThat(p.waitFor(120, TimeUnit.SECONDS)).isTrue();
            assertThat(p.exitValue()).as(new String(p.getInputStream().readAllBytes())).isZero();
        }
        return started;
    }

    @Test
    void manyProcessesAppendingAtOnceLeaveExactlyOneWholeLinePerRecord() throws Exception {
        start("audit", dir.toString(), "TAG", "400", Long.toString(1L << 30));
        assertLines(new AuditLog(dir).lines(), PROCESSES * 400);
        assertThat(dir.resolve(AuditLog.FILE + ".1")).doesNotExist();
        // one chain through every process's records: each took the head of the one before it
        assertThat(new AuditLog(dir).verify().problems()).isEmpty();
    }

    @Test
    void rotationUnderConcurrentWritersLosesNothing() throws Exception {
        // about 230 bytes a line, 2,400 lines: many rotations, and every file is younger than the
        // retention, so none is dropped however many there are
        start("audit", dir.toString(), "TAG", "400", "60000");
        assertThat(dir.resolve(AuditLog.FILE + ".1")).exists();
        assertThat(dir.resolve(AuditLog.FILE + ".6")).exists();
        for (int i = 1; Files.exists(dir.resolve(AuditLog.FILE + "." + i)); i++) {
            assertThat(Files.size(dir.resolve(AuditLog.FILE + "." + i))).isLessThanOrEqualTo(60000);
        }
        assertLines(new AuditLog(dir).lines(), PROCESSES * 400);
        assertThat(new AuditLog(dir).verify().problems()).isEmpty();
    }

    @Test
    void onlyRotatedFilesOlderThanAWeekAreDroppedAndFiveAreAlwaysKept() throws Exception {
        AuditLog log = new AuditLog(dir, 300);
        for (int i = 0; i < 8; i++) {
            log.append(new long[] {System.currentTimeMillis()}, "\"i\":" + i + ",\"pad\":\"" + "x".repeat(200) + "\"}");
        }
        // eight records of more than 300 bytes each: seven rotations, and all seven files kept (young)
        assertThat(dir.resolve(AuditLog.FILE + ".7")).exists();
        java.nio.file.attribute.FileTime old = java.nio.file.attribute.FileTime.from(
                java.time.Instant.now().minus(java.time.Duration.ofDays(8)));
        for (int i = 4; i <= 7; i++) {
            Files.setLastModifiedTime(dir.resolve(AuditLog.FILE + "." + i), old);
        }
        log.append(new long[] {System.currentTimeMillis()}, "\"i\":8,\"pad\":\"" + "x".repeat(200) + "\"}");
        // after the rotation .5 to .8 are old: the oldest go until five remain
        assertThat(dir.resolve(AuditLog.FILE + ".5")).exists();
        assertThat(dir.resolve(AuditLog.FILE + ".6")).doesNotExist();
        assertThat(new AuditLog(dir).lines()).hasSize(6);
    }

    @Test
    void aLineAfterAnotherProcessRotatedTheLogGoesToTheNewLog() throws Exception {
        AuditLog log = new AuditLog(dir);
        log.append(new long[] {1}, "\"n\":1}");
        // what a rotation in another process does while this one keeps the log open
        Files.move(dir.resolve(AuditLog.FILE), dir.resolve(AuditLog.FILE + ".1"));
        log.append(new long[] {2}, "\"n\":2}");
        assertThat(Files.readAllLines(dir.resolve(AuditLog.FILE + ".1"))).singleElement().asString().contains("\"n\":1}");
        assertThat(Files.readAllLines(dir.resolve(AuditLog.FILE))).singleElement().asString()
                .contains("\"seq\":2,").contains("\"n\":2}");
        assertThat(log.verify().problems()).isEmpty();
    }

    @Test
    void aLineAfterTheStateDirectoryWasDeletedMakesItAgain() throws Exception {
        Path state = dir.resolve("state");
        AuditLog log = new AuditLog(state);
        log.append(new long[] {1}, "\"n\":1}");
        try (var files = Files.list(state)) {
            for (Path f : files.toList()) {
                Files.delete(f);
            }
        }
        Files.delete(state);
        log.append(new long[] {2}, "\"n\":2}");
        assertThat(Files.readAllLines(state.resolve(AuditLog.FILE))).singleElement().asString().contains("\"n\":2}");
        assertThat(state.resolve("audit.lock")).exists();
    }

    private static void assertLines(List<String> lines, int expected) throws Exception {
        Set<String> seen = new HashSet<>();
        for (String line : lines) {
            JsonNode n = JsonTrees.parse(line);
            assertThat(n.path("pad").asText()).hasSize(60);
            assertThat(seen.add(n.path("tag").asText() + "/" + n.path("i").asInt())).as("duplicate " + line).isTrue();
        }
        assertThat(lines).hasSize(expected);
        assertThat(seen).hasSize(expected);
    }

    @Test
    void concurrentApprovalsAllLandInAPolicyFileThatStillLoads() throws Exception {
        Path file = dir.resolve("policy.toml");
        Files.writeString(file, "version = 1\n\n[settings]\nmax-depth = 6\n");
        start("approve", file.toString(), "TAG", "15");
        Policy policy = PolicyLoader.load(List.of(PolicyLoader.builtIn(),
                new PolicySource(Layer.USER, file.toString(), Files.readString(file))), null);
        List<String> approved = policy.review().approvals().stream().map(Approval::command).toList();
        assertThat(approved).hasSize(PROCESSES * 15).doesNotHaveDuplicates().contains("touch p0-0", "touch p5-14");
        assertThat(policy.settings().maxDepth()).isEqualTo(6);
        assertThat(Files.readString(file)).contains("# approved ").contains("by process p3");
        try (var files = Files.list(dir)) {
            assertThat(files.map(p -> p.getFileName().toString())).containsExactlyInAnyOrder("policy.toml", "policy.toml.lock");
        }
    }

    @Test
    void anApprovalThatWouldBreakThePolicyIsNotWritten() throws Exception {
        Path file = dir.resolve("policy.toml");
        // an [approved] table (not an array of tables) makes a second one invalid TOML
        String text = "version = 1\n[approved]\nid = \"x\"\n";
        Files.writeString(file, text);
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> ApprovalWriter.appendExact(file, "touch a", null, "t", null, null))
                .isInstanceOf(io.shellgate.rules.PolicyException.class);
        assertThat(file).hasContent(text);
    }
}
