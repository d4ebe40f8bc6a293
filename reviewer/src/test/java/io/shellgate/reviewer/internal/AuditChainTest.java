package io.shellgate.reviewer.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The audit records' hash chain tells an intact log from one with a line edited, removed, inserted or cut off. */
class AuditChainTest {

    @TempDir
    Path dir;

    private List<String> written(int n) throws Exception {
        AuditLog log = new AuditLog(dir);
        for (int i = 1; i <= n; i++) {
            log.append(new long[] {i * 1000L}, "\"i\":" + i + "}");
        }
        return Files.readAllLines(dir.resolve(AuditLog.FILE));
    }

    @Test
    void anIntactLogIsOneChainFromTheOrigin() throws Exception {
        List<String> lines = written(4);
        assertThat(lines.getFirst()).contains("\"seq\":1,\"prev\":\"" + AuditChain.ORIGIN + "\"");
        assertThat(lines.get(1)).contains("\"seq\":2,\"prev\":\"" + AuditChain.sha256(lines.getFirst()) + "\"");
        assertThat(new AuditLog(dir).verify().problems()).isEmpty();
        assertThat(new AuditLog(dir).verify().records()).isEqualTo(4);
    }

    @Test
    void eachKindOfEditIsFoundWhereItIs() throws Exception {
        List<String> lines = written(5);
        Path file = dir.resolve(AuditLog.FILE);
        List<String> edited = new ArrayList<>(lines);
        edited.set(2, lines.get(2).replace("\"i\":3", "\"i\":33"));
        Files.write(file, edited);
        assertThat(new AuditLog(dir).verify().problems()).containsExactly(
                "audit.jsonl:4: the record before it was changed (its hash is not this record's prev)");
        List<String> inserted = new ArrayList<>(lines);
        inserted.add(2, "{\"time\":\"x\",\"i\":99}");
        Files.write(file, inserted);
        assertThat(new AuditLog(dir).verify().problems()).anySatisfy(p -> assertThat(p).startsWith("audit.jsonl:3: a record"
                + " without a place in the chain"));
        Files.write(file, lines.subList(0, 4));
        assertThat(new AuditLog(dir).verify().problems()).containsExactly("the newest record kept is seq 4, but the last one"
                + " written was seq 5: the newest records were removed or changed");
        Files.write(file, lines);
        assertThat(new AuditLog(dir).verify().problems()).isEmpty();
    }

    @Test
    void aLogFromBeforeChainingGoesOnFromItsLastLine() throws Exception {
        Files.writeString(dir.resolve(AuditLog.FILE), "{\"time\":\"old\",\"i\":0}\n");
        new AuditLog(dir).append(new long[] {1}, "\"i\":1}");
        List<String> lines = Files.readAllLines(dir.resolve(AuditLog.FILE));
        assertThat(lines.get(1)).contains("\"seq\":1,\"prev\":\"" + AuditChain.sha256(lines.getFirst()) + "\"");
        assertThat(new AuditLog(dir).verify().problems()).isEmpty();
    }

    @Test
    void aDeletedHeadIsNotTakenForRotation() throws Exception {
        List<String> lines = written(5);
        Path file = dir.resolve(AuditLog.FILE);
        Files.write(file, lines.subList(2, 5));
        var report = new AuditLog(dir).verify();
        assertThat(report.problems()).containsExactly("audit.jsonl:1: the log starts at seq 3, but rotation kept every record"
                + " from seq 1: 2 record(s) removed from its start");
        assertThat(report.rotated()).isFalse();
        // a head kept before floors were (seq and hash only): no rotated file, so nothing was rotated out either
        Path lock = dir.resolve("audit.lock");
        Files.writeString(lock, Files.readString(lock).replaceFirst(" 1\n$", "\n"));
        assertThat(new AuditLog(dir).verify().problems()).containsExactly("audit.jsonl:1: the log starts at seq 3 and no"
                + " rotated file exists: 2 record(s) removed from its start, not rotated out");
    }

    @Test
    void recordsRotatedOutAreNotABreakButOnesRemovedAfterThemAre() throws Exception {
        AuditLog log = new AuditLog(dir, 1);
        for (int i = 1; i <= AuditFiles.KEEP + 3; i++) {
            log.append(new long[] {i * 1000L}, "\"i\":" + i + "}");
            // every rotated file is old enough to be dropped once KEEP newer ones remain
            for (int r = 1; Files.exists(dir.resolve(AuditLog.FILE + "." + r)); r++) {
                Files.setLastModifiedTime(dir.resolve(AuditLog.FILE + "." + r), java.nio.file.attribute.FileTime.fromMillis(0));
            }
        }
        var report = new AuditLog(dir).verify();
        assertThat(report.problems()).isEmpty();
        assertThat(report.rotated()).isTrue();
        assertThat(report.firstSeq()).isEqualTo(3);
        assertThat(report.lastSeq()).isEqualTo(AuditFiles.KEEP + 3);
        Path oldest = dir.resolve(AuditLog.FILE + "." + AuditFiles.KEEP);
        Files.writeString(oldest, "");
        assertThat(new AuditLog(dir).verify().problems()).containsExactly(AuditLog.FILE + "." + (AuditFiles.KEEP - 1)
                + ":1: the log starts at seq 4, but rotation kept every record from seq 3: 1 record(s) removed from its start");
    }

    /** The state a write cut short leaves: the record's first bytes, no newline, and the head still on the record before. */
    private String tornAfterThree(int cut) throws Exception {
        written(3);
        Path file = dir.resolve(AuditLog.FILE);
        Path lock = dir.resolve("audit.lock");
        String before = Files.readString(file);
        String head = Files.readString(lock);
        new AuditLog(dir).append(new long[] {4000L}, "\"i\":4}");
        String fourth = Files.readString(file).substring(before.length());
        Files.writeString(file, before + fourth.substring(0, cut));
        Files.writeString(lock, head);
        return fourth;
    }

    @Test
    void aWriteCutShortIsATornWriteNotTampering() throws Exception {
        String fourth = tornAfterThree(60);
        Path file = dir.resolve(AuditLog.FILE);
        String three = Files.readString(file).substring(0, Files.readString(file).lastIndexOf('\n') + 1);
        for (int cut : new int[] {1, 9, 20, 40, 60, 100, fourth.length() - 2}) {
            Files.writeString(file, three + fourth.substring(0, cut));
            var report = new AuditLog(dir).verify();
            assertThat(report.problems()).as("cut after %d bytes", cut).isEmpty();
            assertThat(report.torn()).as("cut after %d bytes", cut).containsExactly("audit.jsonl:4: a write cut short (a full"
                    + " disk, or a writer stopped while writing); the next record goes on from the one before it");
            assertThat(report.records()).isEqualTo(3);
        }
        new AuditLog(dir).append(new long[] {5000L}, "\"i\":5}");
        List<String> lines = Files.readAllLines(file);
        assertThat(lines).hasSize(5);
        assertThat(lines.get(4)).contains("\"seq\":4,").endsWith("\"i\":5}");
        var report = new AuditLog(dir).verify();
        assertThat(report.problems()).isEmpty();
        assertThat(report.torn()).hasSize(1);
        assertThat(report.records()).isEqualTo(4);
    }

    @Test
    void aTornLineAWriterOnceGluedTheNextRecordToIsStillATornWrite() throws Exception {
        String fourth = tornAfterThree(70);
        Path file = dir.resolve(AuditLog.FILE);
        new AuditLog(dir).append(new long[] {5000L}, "\"i\":5}");
        List<String> lines = Files.readAllLines(file);
        Files.writeString(file, String.join("\n", lines.subList(0, 3)) + "\n" + lines.get(3) + lines.get(4) + "\n");
        var report = new AuditLog(dir).verify();
        assertThat(report.problems()).isEmpty();
        assertThat(report.torn()).hasSize(1);
        assertThat(fourth).contains("\"seq\":4,");
    }

    @Test
    void aRecordCutShortAfterItWasWrittenIsStillABreak() throws Exception {
        List<String> lines = written(4);
        Path file = dir.resolve(AuditLog.FILE);
        List<String> cut = new ArrayList<>(lines);
        cut.set(1, lines.get(1).substring(0, 80));
        Files.write(file, cut);
        var report = new AuditLog(dir).verify();
        assertThat(report.problems()).containsExactly("audit.jsonl:3: seq 3 follows seq 1: 1 record(s) removed before it");
        Files.writeString(file, String.join("\n", lines.subList(0, 3)) + "\n" + lines.get(3).substring(0, 80));
        assertThat(new AuditLog(dir).verify().problems()).containsExactly("the newest record kept is seq 3, but the last one"
                + " written was seq 4: the newest records were removed or changed");
    }
}
