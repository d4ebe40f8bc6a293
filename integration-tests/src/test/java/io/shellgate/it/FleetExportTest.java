package io.shellgate.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.opentelemetry.proto.metrics.v1.Metric;
import io.shellgate.reviewer.OtlpReceiver;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Predicate;
import org.assertj.core.api.InstanceOfAssertFactories;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The decisions of every entry point arrive at a real OTLP/HTTP collector on 127.0.0.1, configured
 * by the gate's own OTEL_* variables, and a collector that holds every request holds no decision.
 */
class FleetExportTest {

    @TempDir
    java.nio.file.Path dir;

    private Sandbox box;
    private OtlpReceiver receiver;

    @BeforeEach
    void sandbox() throws Exception {
        box = new Sandbox(dir);
        receiver = new OtlpReceiver();
        box.env.put("OTEL_EXPORTER_OTLP_ENDPOINT", receiver.endpoint());
        box.env.put("OTEL_SERVICE_NAME", "fleet-test");
        box.env.put("OTEL_RESOURCE_ATTRIBUTES", "team=platform");
        box.env.put("OTEL_METRIC_EXPORT_INTERVAL", "300");
    }

    @AfterEach
    void stop() throws Exception {
        box.close();
        receiver.close();
    }

    /** A client that must be answered by the running server: it has no JVM to fall back on. */
    private Map<String, String> serverClient() {
        Map<String, String> client = new HashMap<>(box.env);
        client.put("SHELLGATE_JAVA_HOME", box.root.resolve("no-jdk-here").toString());
        return client;
    }

    private Optional<OtlpReceiver.Received> record(String entry, Predicate<String> command) {
        return receiver.logs().stream().filter(r -> entry.equals(r.attributes().get("shellgate.entry")) && command.test(r.body()))
                .findFirst();
    }

    private OtlpReceiver.Received awaitRecord(String entry, Predicate<String> command) throws InterruptedException {
        assertThat(OtlpReceiver.await(() -> record(entry, command).isPresent()))
                .as(entry + " in " + receiver.logs().stream().map(r -> r.attributes().get("shellgate.entry") + ": " + r.body()).toList())
                .isTrue();
        return record(entry, command).orElseThrow();
    }

    @Test
    void theDecisionsOfEveryEntryPointArriveWithTheirAttributes() throws Exception {
        box.startServer();
        Map<String, String> client = serverClient();
        assertThat(box.shellgate(client, null, "-c", "ls -la").code()).isZero();
        assertThat(box.shellgate(client, null, "-c", "rm -rf ~").code()).isEqualTo(126);
        // a JVM of its own: its record waits in the queue, and the server sends it
        Map<String, String> own = new HashMap<>(box.env);
        own.put("SHELLGATE_NO_SERVER", "1");
        assertThat(box.shellgate(own, null, "-c", "echo own-jvm").out()).contains("own-jvm");
        assertThat(box.shellgate(Sandbox.bytes("echo in-session\nrm -rf ~\n")).err()).contains("refused (rm-recursive-critical)");
        String hook = "{\"session_id\":\"s-42\",\"cwd\":\"" + box.work + "\",\"hook_event_name\":\"PreToolUse\","
                + "\"tool_name\":\"Bash\",\"tool_input\":{\"command\":\"rm -rf ~\"}}";
        assertThat(box.shellgate(client, Sandbox.bytes(hook), "hook", "claude-code").out()).contains("deny");
        assertThat(AgentJvm.of(17, "server").run(box, "", "pb", "bash", "-c", "rm -rf /").out()).contains("REFUSED");
        assertThat(AgentJvm.of(25, "in-process").run(box, "", "pb", "echo", "in-process").out()).contains("RAN exit=0");

        OtlpReceiver.Received deny = awaitRecord("shell-c", "rm -rf ~"::equals);
        assertThat(deny.attributes()).containsEntry("shellgate.tier", "deny").containsEntry("shellgate.run", false)
                .containsEntry("shellgate.step", "judge").containsEntry("shellgate.cwd", box.work.toString())
                .containsEntry("shellgate.dialect", "bash").containsEntry("shellgate.cmd", "rm -rf ~");
        assertThat(deny.attributes().get("shellgate.rules")).asInstanceOf(InstanceOfAssertFactories.LIST)
                .contains("rm-recursive-critical");
        assertThat(deny.resource()).containsEntry("service.name", "fleet-test").containsEntry("team", "platform")
                .containsKey("host.name").containsKey("user.name");
        assertThat(awaitRecord("shell-c", "ls -la"::equals).attributes()).containsEntry("shellgate.tier", "allow")
                .containsEntry("shellgate.run", true);
        assertThat(awaitRecord("shell-c", "echo own-jvm"::equals).attributes()).containsEntry("shellgate.run", true);
        // a session's line is logged with its newline, as the local log has it
        assertThat(awaitRecord("stdin-session", "rm -rf ~\n"::equals).attributes()).containsEntry("shellgate.run", false);
        awaitRecord("stdin-session", "echo in-session\n"::equals);
        assertThat(awaitRecord("hook", "rm -rf ~"::equals).attributes()).containsEntry("shellgate.tier", "deny");
        assertThat(awaitRecord("javaagent", c -> c.contains("rm -rf /")).attributes()).containsEntry("shellgate.run", false);
        assertThat(awaitRecord("javaagent", c -> c.contains("in-process")).attributes()).containsEntry("shellgate.run", true);
        assertThat(OtlpReceiver.await(() -> metricNames().contains("shellgate.decisions"))).as(metricNames().toString()).isTrue();
    }

    /**
     * The first commands of a session are judged in the client's own JVM while the server starts,
     * and queued on disk: the server sends them when it starts and whenever the queue holds
     * records, with no decision of its own to wake it.
     */
    @Test
    void theRecordsOfColdClientsArriveWithNoFurtherCommand() throws Exception {
        assertThat(box.server()).isEmpty();
        // no server runs: judged in a JVM of its own, which starts a server for the next command
        assertThat(box.shellgate(box.env, null, "-c", "echo cold-1").out()).contains("cold-1");
        // a JVM of its own again, and no decision for the server to make
        Map<String, String> own = new HashMap<>(box.env);
        own.put("SHELLGATE_NO_SERVER", "1");
        assertThat(box.shellgate(own, null, "-c", "echo cold-2").out()).contains("cold-2");
        long start = System.nanoTime();
        box.awaitOnDemandServer();
        awaitRecord("shell-c", "echo cold-1"::equals);
        awaitRecord("shell-c", "echo cold-2"::equals);
        System.out.printf("cold records arrived %d ms after the second command%n", (System.nanoTime() - start) / 1_000_000);
        assertThat(receiver.logs()).as("nothing but the two").hasSize(2);
    }

    @Test
    void overGrpcTheServerAndTheInProcessJudgeExportToo() throws Exception {
        receiver.close();
        receiver = OtlpReceiver.grpc();
        box.env.put("OTEL_EXPORTER_OTLP_ENDPOINT", receiver.endpoint());
        box.env.put("OTEL_EXPORTER_OTLP_PROTOCOL", "grpc");
        box.startServer();
        assertThat(box.shellgate(serverClient(), null, "-c", "rm -rf ~").code()).isEqualTo(126);
        assertThat(AgentJvm.of(25, "in-process").run(box, "", "pb", "echo", "in-process").out()).contains("RAN exit=0");
        assertThat(awaitRecord("shell-c", "rm -rf ~"::equals).attributes()).containsEntry("shellgate.tier", "deny")
                .containsKey("shellgate.host").containsKey("shellgate.user");
        assertThat(awaitRecord("javaagent", c -> c.contains("in-process")).attributes()).containsEntry("shellgate.run", true);
        assertThat(OtlpReceiver.await(() -> metricNames().contains("shellgate.decisions"))).as(metricNames().toString()).isTrue();
    }

    private List<String> metricNames() {
        return receiver.metrics().stream().flatMap(m -> m.getResourceMetricsList().stream())
                .flatMap(r -> r.getScopeMetricsList().stream()).flatMap(s -> s.getMetricsList().stream())
                .map(Metric::getName).distinct().toList();
    }

    @Test
    void aCollectorThatHoldsEveryRequestHoldsNoDecisionAndGetsEveryRecordWhenItAnswers() throws Exception {
        receiver.mode(OtlpReceiver.Mode.BLOCK);
        box.startServer();
        Map<String, String> client = serverClient();
        assertThat(box.shellgate(client, null, "-c", "echo first").code()).isZero();
        assertThat(OtlpReceiver.await(() -> receiver.held() >= 1)).as("the server's export is held by the collector").isTrue();
        for (int i = 0; i < 5; i++) {
            Processes.Result r = box.shellgate(client, null, "-c", "echo held-" + i);
            assertThat(r.code()).as(r.toString()).isZero();
            assertThat(r.out()).contains("held-" + i);
        }
        assertThat(box.shellgate(client, null, "-c", "rm -rf ~").code()).isEqualTo(126);
        // every decision above was made while the collector still held the export
        assertThat(receiver.held()).isGreaterThanOrEqualTo(1);
        assertThat(receiver.logs()).isEmpty();
        receiver.release();
        for (String c : List.of("echo first", "echo held-0", "echo held-4", "rm -rf ~")) {
            awaitRecord("shell-c", c::equals);
        }
    }
}
