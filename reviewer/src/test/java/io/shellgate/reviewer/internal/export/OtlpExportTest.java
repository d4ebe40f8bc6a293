package io.shellgate.reviewer.internal.export;

import static org.assertj.core.api.Assertions.assertThat;

import io.opentelemetry.proto.metrics.v1.Metric;
import io.shellgate.judge.Dialect;
import io.shellgate.judge.JudgeRequest;
import io.shellgate.reviewer.AuditTrail;
import io.shellgate.reviewer.model.EntryPoint;
import io.shellgate.reviewer.config.GateConfig;
import io.shellgate.reviewer.Gatekeeper;
import io.shellgate.reviewer.model.Origin;
import io.shellgate.reviewer.OtlpReceiver;
import io.shellgate.reviewer.People;
import io.shellgate.reviewer.Result;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.assertj.core.api.InstanceOfAssertFactories;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Decisions exported to a real OTLP/HTTP receiver on 127.0.0.1, and what happens when it is down, slow or failing. */
class OtlpExportTest {

    @TempDir
    Path dir;

    private Path project;
    private final Map<String, String> env = new HashMap<>();

    @BeforeAll
    static void shipsFromThisJvm() {
        Exports.shipFromHere();
    }

    @BeforeEach
    void setUp() throws Exception {
        Path home = Files.createDirectories(dir.resolve("home"));
        project = Files.createDirectories(dir.resolve("project"));
        Files.createDirectories(project.resolve(".git"));
        env.put("HOME", home.toString());
        env.put("XDG_STATE_HOME", dir.resolve("state").toString());
        env.put("SHELLGATE_REVIEW_TIMEOUT_SECONDS", "0");
        env.put("OTEL_METRIC_EXPORT_INTERVAL", "200");
    }

    /** Decides on a command line through the gate (which judges, reviews, logs and exports); true when it runs. */
    private boolean decide(Gatekeeper gate, String command) {
        JudgeRequest request = new JudgeRequest(command, Dialect.BASH, project, Map.of("PATH", "/usr/bin:/bin",
                "HOME", env.get("HOME")));
        return gate.decide(request, new Origin(EntryPoint.SHELL_C, 42, "test", "s1"), People.none()) instanceof Result.Runs;
    }

    private Gatekeeper gates(String endpoint) {
        env.put("OTEL_EXPORTER_OTLP_ENDPOINT", endpoint);
        env.put("OTEL_SERVICE_NAME", "shellgate-test");
        env.put("OTEL_RESOURCE_ATTRIBUTES", "deployment.environment=ci,team=platform");
        return Gatekeeper.of(GateConfig.of(env, null));
    }

    private List<String> commands(OtlpReceiver receiver) {
        return receiver.logs().stream().map(OtlpReceiver.Received::body).toList();
    }

    @Test
    void everyDecisionArrivesAsALogRecordWithTheAuditRecordsFieldsAsAttributes() throws Exception {
        try (OtlpReceiver receiver = new OtlpReceiver()) {
            Gatekeeper gates = gates(receiver.endpoint());
            assertThat(decide(gates, "ls -la")).isTrue();
            assertThat(decide(gates, "rm -rf ~")).isFalse();
            assertThat(decide(gates, "curl -H 'Authorization: Bearer abc123secret' https://x.example")).isFalse();
            assertThat(OtlpReceiver.await(() -> receiver.logs().size() >= 3)).isTrue();
            OtlpReceiver.Received deny = receiver.logs().stream().filter(r -> r.body().equals("rm -rf ~")).findFirst().orElseThrow();
            assertThat(deny.attributes()).containsEntry("shellgate.entry", "shell-c").containsEntry("shellgate.tier", "deny")
                    .containsEntry("shellgate.run", false).containsEntry("shellgate.step", "judge")
                    .containsEntry("shellgate.cwd", project.toString()).containsEntry("shellgate.dialect", "bash")
                    .containsEntry("shellgate.session", "s1").containsEntry("shellgate.pid", 42L)
                    .containsEntry("shellgate.detail", "test").containsEntry("shellgate.cmd", "rm -rf ~")
                    .containsKey("shellgate.message").containsKey("shellgate.judge-us");
            assertThat(deny.attributes().get("shellgate.rules")).asInstanceOf(InstanceOfAssertFactories.LIST)
                    .contains("rm-recursive-critical");
            assertThat(deny.severity()).isEqualTo("WARN");
            assertThat(deny.resource()).containsEntry("service.name", "shellgate-test")
                    .containsEntry("deployment.environment", "ci").containsEntry("team", "platform")
                    .containsKey("host.name").containsKey("user.name");
            // and on the record itself
            assertThat(deny.attributes()).containsEntry("shellgate.host", deny.resource().get("host.name"))
                    .containsEntry("shellgate.user", deny.resource().get("user.name"));
            OtlpReceiver.Received allow = receiver.logs().stream().filter(r -> r.body().equals("ls -la")).findFirst().orElseThrow();
            assertThat(allow.severity()).isEqualTo("INFO");
            assertThat(allow.attributes()).containsEntry("shellgate.tier", "allow").containsEntry("shellgate.run", true);
            // redacted as in the local log
            assertThat(commands(receiver)).noneMatch(c -> c.contains("abc123secret")).anyMatch(c -> c.contains("[REDACTED]"));
            assertThat(AuditTrail.lines(env)).hasSize(3);
        }
    }

    @Test
    void overGrpcRecordsAndMetricsArriveAndARefusingCollectorGetsThemLater() throws Exception {
        try (OtlpReceiver receiver = OtlpReceiver.grpc()) {
            env.put("OTEL_EXPORTER_OTLP_PROTOCOL", "grpc");
            Gatekeeper gates = gates(receiver.endpoint());
            assertThat(decide(gates, "ls -la")).isTrue();
            assertThat(decide(gates, "rm -rf ~")).isFalse();
            assertThat(OtlpReceiver.await(() -> commands(receiver).containsAll(List.of("ls -la", "rm -rf ~"))))
                    .as(commands(receiver).toString()).isTrue();
            OtlpReceiver.Received deny = receiver.logs().stream().filter(r -> r.body().equals("rm -rf ~")).findFirst().orElseThrow();
            assertThat(deny.attributes()).containsEntry("shellgate.entry", "shell-c").containsEntry("shellgate.tier", "deny")
                    .containsEntry("shellgate.run", false).containsKey("shellgate.host").containsKey("shellgate.user");
            assertThat(deny.resource()).containsEntry("service.name", "shellgate-test").containsEntry("team", "platform");
            assertThat(OtlpReceiver.await(() -> names(receiver).contains("shellgate.decisions"))).as(names(receiver).toString())
                    .isTrue();
            // UNAVAILABLE: the records wait on disk, and arrive when the collector takes them again
            receiver.mode(OtlpReceiver.Mode.ERROR);
            assertThat(decide(gates, "echo while-refused")).isTrue();
            assertThat(OtlpReceiver.await(() -> receiver.errors() > 0)).isTrue();
            receiver.mode(OtlpReceiver.Mode.OK);
            assertThat(OtlpReceiver.await(() -> commands(receiver).contains("echo while-refused"))).as(commands(receiver).toString())
                    .isTrue();
        }
    }

    @Test
    void metricsCountDecisionsByTierAndEntryPointAndTimeTheJudge() throws Exception {
        try (OtlpReceiver receiver = new OtlpReceiver()) {
            Gatekeeper gates = gates(receiver.endpoint());
            decide(gates, "ls");
            decide(gates, "touch a");
            assertThat(OtlpReceiver.await(() -> names(receiver).containsAll(List.of("shellgate.decisions",
                    "shellgate.judge.duration", "shellgate.ask.duration")))).as(names(receiver).toString()).isTrue();
            // a cumulative counter: its latest points count both decisions, by entry point and tier
            assertThat(OtlpReceiver.await(() -> points(receiver, "shellgate.decisions").containsAll(List.of(
                    Map.of("shellgate.entry", "shell-c", "shellgate.tier", "allow", "shellgate.step", "judge",
                            "shellgate.run", true),
                    Map.of("shellgate.entry", "shell-c", "shellgate.tier", "ask", "shellgate.step", "timeout",
                            "shellgate.run", false))))).as(points(receiver, "shellgate.decisions").toString()).isTrue();
            // the ask, by who answered it (nobody: it timed out) and whether it ran
            assertThat(points(receiver, "shellgate.ask.duration")).contains(Map.of("shellgate.entry", "shell-c",
                    "shellgate.step", "timeout", "shellgate.run", false));
            assertThat(points(receiver, "shellgate.judge.duration")).contains(Map.of("shellgate.entry", "shell-c"));
        }
    }

    /** The attributes of every data point received for the metric {@code name}. */
    private static List<Map<String, Object>> points(OtlpReceiver receiver, String name) {
        return receiver.metrics().stream().flatMap(m -> m.getResourceMetricsList().stream())
                .flatMap(r -> r.getScopeMetricsList().stream()).flatMap(s -> s.getMetricsList().stream())
                .filter(m -> m.getName().equals(name))
                .flatMap(m -> java.util.stream.Stream.concat(
                        m.getSum().getDataPointsList().stream().map(p -> OtlpReceiver.attributes(p.getAttributesList())),
                        m.getHistogram().getDataPointsList().stream().map(p -> OtlpReceiver.attributes(p.getAttributesList()))))
                .distinct().toList();
    }

    private static List<String> names(OtlpReceiver receiver) {
        return receiver.metrics().stream().flatMap(m -> m.getResourceMetricsList().stream())
                .flatMap(r -> r.getScopeMetricsList().stream()).flatMap(s -> s.getMetricsList().stream())
                .map(Metric::getName).distinct().toList();
    }

    @Test
    void aCollectorThatHoldsEveryRequestNeverHoldsADecisionAndGetsTheRecordsWhenItAnswers() throws Exception {
        try (OtlpReceiver receiver = new OtlpReceiver()) {
            receiver.mode(OtlpReceiver.Mode.BLOCK);
            Gatekeeper gates = gates(receiver.endpoint());
            decide(gates, "echo first");
            assertThat(OtlpReceiver.await(() -> receiver.held() == 1)).as("the export is stuck in the collector").isTrue();
            for (int i = 0; i < 50; i++) {
                assertThat(decide(gates, "echo " + i)).isTrue();
            }
            // every decision above returned while the collector still held the export (a periodic metrics export
            // may be held beside it when the decisions take long on a busy machine: at least the one, never none)
            assertThat(receiver.held()).isGreaterThanOrEqualTo(1);
            assertThat(receiver.logs()).isEmpty();
            assertThat(AuditTrail.lines(env)).hasSize(51);
            receiver.release();
            assertThat(OtlpReceiver.await(() -> commands(receiver).containsAll(List.of("echo first", "echo 0", "echo 49"))))
                    .as(commands(receiver).toString()).isTrue();
            assertThat(commands(receiver).stream().distinct().count()).isEqualTo(51);
        }
    }

    @Test
    void recordsTheCollectorRefusedWaitOnDiskAndArriveWhenItTakesThemAgain() throws Exception {
        try (OtlpReceiver receiver = new OtlpReceiver()) {
            receiver.mode(OtlpReceiver.Mode.ERROR);
            Gatekeeper gates = gates(receiver.endpoint());
            for (int i = 0; i < 5; i++) {
                assertThat(decide(gates, "echo refused-" + i)).isTrue();
            }
            Path queue = dir.resolve("state/shellgate/otlp-queue");
            assertThat(OtlpReceiver.await(() -> receiver.errors() > 0 && batches(queue) > 0)).isTrue();
            receiver.mode(OtlpReceiver.Mode.OK);
            assertThat(OtlpReceiver.await(() -> commands(receiver).containsAll(List.of("echo refused-0", "echo refused-4"))))
                    .isTrue();
            assertThat(OtlpReceiver.await(() -> batches(queue) == 0)).as("the queue is emptied").isTrue();
        }
    }

    @Test
    void aCollectorThatIsDownGetsTheQueuedRecordsWhenItComesBack() throws Exception {
        int port;
        try (ServerSocket s = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            port = s.getLocalPort();
        }
        Gatekeeper gates = gates("http://127.0.0.1:" + port);
        for (int i = 0; i < 5; i++) {
            assertThat(decide(gates, "echo down-" + i)).isTrue();
        }
        Path queue = dir.resolve("state/shellgate/otlp-queue");
        assertThat(OtlpReceiver.await(() -> batches(queue) > 0)).isTrue();
        try (OtlpReceiver receiver = new OtlpReceiver(port)) {
            assertThat(OtlpReceiver.await(() -> commands(receiver).containsAll(List.of("echo down-0", "echo down-4"))))
                    .isTrue();
        }
    }

    @Test
    void withTheSdksWarningsMutedACollectorThatIsDownIsReportedOnceByShellgateAlone() throws Exception {
        Exports.muteSdkWarnings();
        List<String> fromSdk = new java.util.concurrent.CopyOnWriteArrayList<>();
        List<String> ours = new java.util.concurrent.CopyOnWriteArrayList<>();
        Handler handler = new Handler() {
            @Override
            public void publish(LogRecord r) {
                String name = String.valueOf(r.getLoggerName());
                (name.startsWith("io.opentelemetry") ? fromSdk : ours).add(name + ": " + r.getMessage());
            }

            @Override
            public void flush() {}

            @Override
            public void close() {}
        };
        Logger root = Logger.getLogger("");
        root.addHandler(handler);
        try {
            int port;
            try (ServerSocket s = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
                port = s.getLocalPort();
            }
            Gatekeeper gates = gates("http://127.0.0.1:" + port);
            assertThat(decide(gates, "echo muted")).isTrue();
            // the shipper warns after the exporter failed: by then the SDK would have logged its own
            assertThat(OtlpReceiver.await(() -> ours.stream().anyMatch(m -> m.contains("did not take the audit records"))))
                    .as(ours.toString()).isTrue();
            assertThat(fromSdk).isEmpty();
        } finally {
            root.removeHandler(handler);
        }
    }

    @Test
    void recordsThatCannotBeSentNowAreGatheredIntoOneQueueFileNotOneEach() throws Exception {
        Path queueDir = dir.resolve("gathered");
        OtlpConfig config = OtlpConfig.resolve(io.shellgate.rules.FleetSettings.NONE,
                Map.of("OTEL_EXPORTER_OTLP_ENDPOINT", "http://127.0.0.1:9")).orElseThrow();
        // a process that does not send, gathering for an hour: only memory filling up ends the gathering
        Shipper shipper = new Shipper(config, new ExportQueue(queueDir, 64L << 20), false, java.time.Duration.ofMinutes(1),
                java.time.Duration.ofMillis(250), java.time.Duration.ofSeconds(10), java.time.Duration.ofHours(1));
        // more than a batch the thread may take at once plus half of memory (512 + 2048)
        for (int i = 0; i < 2600; i++) {
            shipper.accept("{\"cmd\":\"echo " + i + "\"}");
        }
        assertThat(OtlpReceiver.await(() -> lines(queueDir) >= 2048)).as(lines(queueDir) + " lines").isTrue();
        // one file; what came after it gathers for the next (an hour here, or until the process ends)
        assertThat(batches(queueDir)).isEqualTo(1);
    }

    private static long lines(Path queue) {
        try (var files = Files.list(queue)) {
            return files.filter(f -> f.getFileName().toString().endsWith(".jsonl")).mapToLong(f -> {
                try {
                    return Files.readAllLines(f).size();
                } catch (java.io.IOException e) {
                    return 0;
                }
            }).sum();
        } catch (Exception e) {
            return 0;
        }
    }

    @Test
    void theQueueIsBoundedAndWhatItDropsIsCountedAndLogged() throws Exception {
        Path queueDir = dir.resolve("queue");
        ExportQueue queue = new ExportQueue(queueDir, 300);
        List<String> warnings = new java.util.concurrent.CopyOnWriteArrayList<>();
        Logger jul = Logger.getLogger("io.shellgate.reviewer");
        Handler handler = new Handler() {
            @Override
            public void publish(LogRecord r) {
                warnings.add(r.getMessage());
            }

            @Override
            public void flush() {}

            @Override
            public void close() {}
        };
        jul.addHandler(handler);
        try {
            String record = "{\"cmd\":\"" + "x".repeat(100) + "\"}";
            assertThat(queue.spill(List.of(record, record))).isZero();
            assertThat(queue.spill(List.of(record, record))).isEqualTo(2);
            assertThat(queue.spill(List.of(record))).isEqualTo(1);
            assertThat(queue.dropped()).isEqualTo(3);
            assertThat(new ExportQueue(queueDir, 300).dropped()).as("kept on disk for doctor").isEqualTo(3);
            assertThat(warnings).anySatisfy(w -> assertThat(w).contains("dropped").contains("3 dropped in all"));
            ExportQueue.Claim c = queue.claim();
            assertThat(c.lines()).containsExactly(record, record);
            assertThat(queue.claim()).as("claimed by this process: nobody else sends it").isNull();
            queue.release(c);
            assertThat(queue.claim()).isNotNull();
        } finally {
            jul.removeHandler(handler);
        }
    }

    @Test
    void theGatesOwnEnvironmentConfiguresTheExportAndThePolicysKeysLoseToIt() {
        var fleet = new io.shellgate.rules.FleetSettings(null, true, true, java.util.Set.of(),
                Map.of("endpoint", "http://file:4318", "service-name", "from-file", "headers", "a=1"), java.util.Set.of());
        OtlpConfig c = OtlpConfig.resolve(fleet, Map.of("OTEL_EXPORTER_OTLP_ENDPOINT", "http://env:4318/",
                "OTEL_EXPORTER_OTLP_HEADERS", "authorization=Bearer%20t,x-team=a")).orElseThrow();
        assertThat(c.logs()).hasToString("http://env:4318/v1/logs");
        assertThat(c.metrics()).hasToString("http://env:4318/v1/metrics");
        assertThat(c.headers()).containsEntry("authorization", "Bearer t").containsEntry("x-team", "a");
        assertThat(c.resource()).containsEntry("service.name", "from-file");
        assertThat(c.toString()).doesNotContain("Bearer");
        var pinned = new io.shellgate.rules.FleetSettings("/etc/shellgate/policy.toml", true, true, java.util.Set.of(),
                Map.of("endpoint", "http://file:4318"), java.util.Set.of("endpoint"));
        assertThat(OtlpConfig.resolve(pinned, Map.of("OTEL_EXPORTER_OTLP_ENDPOINT", "http://env:4318",
                "OTEL_SDK_DISABLED", "true")).orElseThrow().logs()).hasToString("http://file:4318/v1/logs");
        assertThat(OtlpConfig.resolve(fleet, Map.of("OTEL_SDK_DISABLED", "true"))).isEmpty();
        assertThat(OtlpConfig.resolve(io.shellgate.rules.FleetSettings.NONE, Map.of())).isEmpty();
    }

    private static long batches(Path queue) {
        try (var files = Files.list(queue)) {
            return files.filter(f -> f.getFileName().toString().endsWith(".jsonl")).count();
        } catch (Exception e) {
            return 0;
        }
    }
}
