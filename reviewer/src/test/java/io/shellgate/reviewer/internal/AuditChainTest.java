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
}
