package io.shellgate.reviewer.internal;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.shellgate.judge.Dialect;
import io.shellgate.judge.JudgeRequest;
import io.shellgate.judge.Judges;
import io.shellgate.judge.Verdict;
import io.shellgate.reviewer.model.Decision;
import io.shellgate.reviewer.model.EntryPoint;
import io.shellgate.reviewer.model.Origin;
import io.shellgate.reviewer.model.ReviewRequest;
import io.shellgate.reviewer.model.Step;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The audit record is streamed field by field, so it is read back here by a real JSON parser. */
class AuditWriterTest {

    private static JsonNode record(String command, String detail) throws Exception {
        JudgeRequest request = new JudgeRequest(command, Dialect.BASH, Path.of("/home/u/p\u00e9"),
                Map.of("PATH", "/usr/bin:/bin", "HOME", "/home/u"));
        Verdict verdict = Judges.defaults().judge(request);
        Origin origin = new Origin(EntryPoint.JAVAAGENT, 4242, detail, "s-1");
        Decision decision = new Decision(false, Step.JUDGE, "refused: \"" + command + "\"", verdict);
        String line = AuditWriter.line(new ReviewRequest(request, verdict, origin, null), decision);
        assertThat(line).doesNotContain("\n").startsWith("{\"time\":").endsWith("}");
        return new ObjectMapper().readTree(line);
    }

    @Test
    void everyCharacterSurvivesTheRoundTrip() throws Exception {
        String nasty = "echo \"q\" \\ back\ttab\r\u0001\u001f \u00e9\u4e2d\ud83d\ude00 '\u2028'\nrm -rf ~";
        JsonNode r = record(nasty, "Main \"x\"\\y");
        assertThat(r.path("cmd").asText()).isEqualTo(nasty);
        assertThat(r.path("detail").asText()).isEqualTo("Main \"x\"\\y");
        assertThat(r.path("cwd").asText()).isEqualTo("/home/u/p\u00e9");
        assertThat(r.path("pid").asLong()).isEqualTo(4242);
        assertThat(r.path("session").asText()).isEqualTo("s-1");
        assertThat(r.path("entry").asText()).isEqualTo("javaagent");
        assertThat(r.path("tier").asText()).isEqualTo("deny");
        assertThat(r.path("run").isBoolean()).isTrue();
        assertThat(r.path("run").asBoolean()).isFalse();
        assertThat(r.path("message").asText()).isEqualTo("refused: \"" + nasty + "\"");
        assertThat(r.path("rules").toString()).isEqualTo("[\"rm-recursive-critical\"]");
        assertThat(r.path("reasons").size()).isGreaterThanOrEqualTo(r.path("rules").size());
    }

    @Test
    void theTimeIsAnIsoInstantInUtcWithMilliseconds() throws Exception {
        Instant before = Instant.now().minusMillis(1);
        String time = record("ls", "").path("time").asText();
        assertThat(time).matches("\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d{3}Z");
        assertThat(Instant.parse(time)).isBetween(before.truncatedTo(java.time.temporal.ChronoUnit.MILLIS), Instant.now());
        assertThat(AuditWriter.Timestamps.of(1_764_468_184_007L)).isEqualTo("2025-11-30T02:03:04.007Z");
        assertThat(AuditWriter.Timestamps.of(-1L)).isEqualTo("1969-12-31T23:59:59.999Z");
    }

    @Test
    void secretsAreRedactedAndEmptyFieldsLeftOut() throws Exception {
        JsonNode r = record("curl -H 'Authorization: Bearer abcdef123456' https://x", "");
        assertThat(r.path("cmd").asText()).contains("[REDACTED]").doesNotContain("abcdef123456");
        assertThat(r.path("message").asText()).doesNotContain("abcdef123456");
        assertThat(r.has("detail")).isFalse();
    }

    @Test
    void aRecordSaidAgainIsTheSameButForItsTimeAndAnythingSaidDifferentlyIsWrittenAfresh() throws Exception {
        JudgeRequest request = new JudgeRequest("cat notes.txt", Dialect.BASH, Path.of("/home/u"), Map.of("PATH", "/usr/bin:/bin"));
        Verdict verdict = Judges.defaults().judge(request);
        Origin origin = new Origin(EntryPoint.JAVAAGENT, 4242, "Main", "s-1");
        String first = AuditWriter.line(new ReviewRequest(request, verdict, origin, null), new Decision(true, Step.JUDGE, "read-only",
                verdict));
        Thread.sleep(5);
        String again = AuditWriter.line(new ReviewRequest(request, verdict, origin, null), new Decision(true, Step.JUDGE,
                "read-only", verdict));
        assertThat(again).isNotEqualTo(first);
        assertThat(again.substring(again.indexOf("\"entry\""))).isEqualTo(first.substring(first.indexOf("\"entry\"")));
        // another process, another message, another decision, another directory: each its own record
        assertThat(AuditWriter.line(new ReviewRequest(request, verdict, new Origin(EntryPoint.JAVAAGENT, 4243, "Main", "s-1"), null),
                new Decision(true, Step.JUDGE, "read-only", verdict))).contains("\"pid\":4243");
        assertThat(AuditWriter.line(new ReviewRequest(request, verdict, origin, null), new Decision(true, Step.MEMORY,
                "approved earlier", verdict))).contains("\"step\":\"memory\"").contains("\"message\":\"approved earlier\"");
        assertThat(AuditWriter.line(new ReviewRequest(request, verdict, origin, null), new Decision(false, Step.JUDGE, "read-only",
                verdict))).contains("\"run\":false");
        JudgeRequest elsewhere = new JudgeRequest("cat notes.txt", Dialect.BASH, Path.of("/tmp"), Map.of("PATH", "/usr/bin:/bin"));
        assertThat(AuditWriter.line(new ReviewRequest(elsewhere, verdict, origin, null), new Decision(true, Step.JUDGE, "read-only",
                verdict))).contains("\"cwd\":\"/tmp\"");
        assertThat(new ObjectMapper().readTree(again).path("cmd").asText()).isEqualTo("cat notes.txt");
    }

    @Test
    void recordsWrittenOneAfterAnotherShareNothing() throws Exception {
        // one generator writes every record: nothing of a record may reach the next
        for (String command : new String[] {"ls -la", "rm -rf /", "cat \"x\"", "pwd"}) {
            JsonNode r = record(command, "");
            assertThat(r.path("cmd").asText()).isEqualTo(command);
            List<String> fields = new ArrayList<>();
            r.fieldNames().forEachRemaining(fields::add);
            assertThat(fields).containsExactly("time", "entry", "pid", "session", "cwd", "dialect", "cmd", "cmd-length",
                    "cmd-sha256", "tier", "run", "step", "message", "rules", "reasons");
        }
    }

    @Test
    void aLongCommandIsCutButItsLengthAndHashSayExactlyWhatRan() throws Exception {
        String command = "echo " + "x".repeat(100_000) + " && touch y";
        JsonNode r = record(command, "d".repeat(1000));
        assertThat(r.path("cmd").asText()).hasSize(4096).startsWith("echo xxx");
        assertThat(r.path("cmd-cut").asBoolean()).isTrue();
        assertThat(r.path("cmd-length").asInt()).isEqualTo(command.length());
        assertThat(r.path("cmd-sha256").asText()).isEqualTo(java.util.HexFormat.of().formatHex(
                java.security.MessageDigest.getInstance("SHA-256").digest(command.getBytes(java.nio.charset.StandardCharsets.UTF_8))));
        assertThat(r.path("detail").asText()).hasSize(256);
        assertThat(r.path("message").asText()).hasSize(1024);
        assertThat(r.toString().length()).isLessThan(16 * 1024);
        assertThat(record("ls", "").has("cmd-cut")).isFalse();
    }
}
