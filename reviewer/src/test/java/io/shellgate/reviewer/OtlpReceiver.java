package io.shellgate.reviewer;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.opentelemetry.proto.collector.logs.v1.ExportLogsServiceRequest;
import io.opentelemetry.proto.collector.metrics.v1.ExportMetricsServiceRequest;
import io.opentelemetry.proto.common.v1.AnyValue;
import io.opentelemetry.proto.common.v1.KeyValue;
import io.opentelemetry.proto.logs.v1.LogRecord;
import io.opentelemetry.proto.logs.v1.ResourceLogs;
import io.opentelemetry.proto.logs.v1.ScopeLogs;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import java.util.zip.GZIPInputStream;

/**
 * A real OTLP collector on 127.0.0.1 for tests, over HTTP ({@link #OtlpReceiver()}) or gRPC
 * ({@link #grpc()}, a grpc-java server): decodes what it receives with the OpenTelemetry
 * protocol's own classes, and can answer an error (500; UNAVAILABLE) or hold every request until
 * released.
 */
public final class OtlpReceiver implements AutoCloseable {

    /** How the receiver answers. */
    public enum Mode { OK, ERROR, BLOCK }

    /** One log record as received, with its resource's attributes. */
    public record Received(Map<String, Object> resource, Map<String, Object> attributes, String body, String severity,
            long timeNanos) {}

    private final HttpServer server;
    private final io.grpc.Server grpcServer;
    private volatile Mode mode = Mode.OK;
    private volatile CountDownLatch release = new CountDownLatch(1);
    private final AtomicInteger held = new AtomicInteger();
    private final AtomicInteger errors = new AtomicInteger();
    private final List<Received> logs = new CopyOnWriteArrayList<>();
    private final List<ExportMetricsServiceRequest> metrics = new CopyOnWriteArrayList<>();

    public OtlpReceiver() throws IOException {
        this(0);
    }

    public OtlpReceiver(int port) throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 16);
        server.setExecutor(Executors.newCachedThreadPool(r -> Thread.ofPlatform().daemon().unstarted(r)));
        server.createContext("/", this::handle);
        server.start();
        grpcServer = null;
    }

    private OtlpReceiver(io.grpc.Server grpc) {
        server = null;
        grpcServer = grpc;
    }

    /** A collector speaking OTLP over gRPC (the logs and metrics services), on a free port of 127.0.0.1. */
    public static OtlpReceiver grpc() throws IOException {
        OtlpReceiver[] self = new OtlpReceiver[1];
        io.grpc.ServerServiceDefinition logs = GrpcServices.service("opentelemetry.proto.collector.logs.v1.LogsService",
                body -> self[0].receive("/v1/logs", body));
        io.grpc.ServerServiceDefinition metrics = GrpcServices.service("opentelemetry.proto.collector.metrics.v1.MetricsService",
                body -> self[0].receive("/v1/metrics", body));
        io.grpc.Server s = io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder
                .forAddress(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0))
                .addService(logs).addService(metrics).directExecutor().build();
        self[0] = new OtlpReceiver(s);
        s.start();
        return self[0];
    }

    public String endpoint() {
        return "http://127.0.0.1:" + port();
    }

    public int port() {
        return server != null ? server.getAddress().getPort() : grpcServer.getPort();
    }

    /**
     * One request's body, for the gRPC services: held, refused or taken as the mode says; returns
     * whether it was taken (false: the call fails UNAVAILABLE).
     */
    private boolean receive(String path, byte[] body) throws IOException {
        Mode m = mode;
        if (m == Mode.BLOCK) {
            hold();
        } else if (m == Mode.ERROR) {
            errors.incrementAndGet();
            return false;
        }
        if (path.equals("/v1/logs")) {
            take(ExportLogsServiceRequest.parseFrom(body));
        } else {
            metrics.add(ExportMetricsServiceRequest.parseFrom(body));
        }
        return true;
    }

    private void hold() {
        held.incrementAndGet();
        try {
            release.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            held.decrementAndGet();
        }
    }

    public void mode(Mode m) {
        if (m == Mode.BLOCK) {
            release = new CountDownLatch(1);
        }
        mode = m;
    }

    /** Lets every held request through (they are then taken) and answers the next ones normally. */
    public void release() {
        mode = Mode.OK;
        release.countDown();
    }

    /** How many requests are being held now. */
    public int held() {
        return held.get();
    }

    /** How many requests were answered 500. */
    public int errors() {
        return errors.get();
    }

    public List<Received> logs() {
        return List.copyOf(logs);
    }

    public List<ExportMetricsServiceRequest> metrics() {
        return List.copyOf(metrics);
    }

    /** Waits (a minute at most) until the condition holds; says whether it did. */
    public static boolean await(BooleanSupplier condition) throws InterruptedException {
        for (int i = 0; i < 1200; i++) {
            if (condition.getAsBoolean()) {
                return true;
            }
            Thread.sleep(50);
        }
        return condition.getAsBoolean();
    }

    private void handle(HttpExchange x) throws IOException {
        byte[] body;
        try (InputStream in = "gzip".equals(x.getRequestHeaders().getFirst("Content-Encoding"))
                ? new GZIPInputStream(x.getRequestBody()) : x.getRequestBody()) {
            body = in.readAllBytes();
        }
        Mode m = mode;
        if (m == Mode.BLOCK) {
            hold();
        } else if (m == Mode.ERROR) {
            errors.incrementAndGet();
            x.sendResponseHeaders(500, -1);
            x.close();
            return;
        }
        String path = x.getRequestURI().getPath();
        if (path.equals("/v1/logs")) {
            take(ExportLogsServiceRequest.parseFrom(body));
        } else if (path.equals("/v1/metrics")) {
            metrics.add(ExportMetricsServiceRequest.parseFrom(body));
        }
        x.getResponseHeaders().add("Content-Type", "application/x-protobuf");
        x.sendResponseHeaders(200, 0);
        x.close();
    }

    private void take(ExportLogsServiceRequest request) {
        for (ResourceLogs rl : request.getResourceLogsList()) {
            Map<String, Object> resource = attributes(rl.getResource().getAttributesList());
            for (ScopeLogs sl : rl.getScopeLogsList()) {
                for (LogRecord r : sl.getLogRecordsList()) {
                    logs.add(new Received(resource, attributes(r.getAttributesList()), r.getBody().getStringValue(),
                            r.getSeverityText(), r.getTimeUnixNano()));
                }
            }
        }
    }

    public static Map<String, Object> attributes(List<KeyValue> list) {
        Map<String, Object> out = new LinkedHashMap<>();
        list.forEach(kv -> out.put(kv.getKey(), value(kv.getValue())));
        return out;
    }

    private static Object value(AnyValue v) {
        return switch (v.getValueCase()) {
            case STRING_VALUE -> v.getStringValue();
            case BOOL_VALUE -> v.getBoolValue();
            case INT_VALUE -> v.getIntValue();
            case DOUBLE_VALUE -> v.getDoubleValue();
            case ARRAY_VALUE -> v.getArrayValue().getValuesList().stream().map(OtlpReceiver::value).toList();
            default -> v.toString();
        };
    }

    @Override
    public void close() {
        release();
        if (server != null) {
            server.stop(0);
        } else {
            grpcServer.shutdownNow();
        }
    }
}
