package io.shellgate.reviewer.internal.llm;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

/**
 * A model server on loopback that speaks one provider's protocol: it records every request and
 * answers with the reply text, HTTP status or silence the test chose.
 */
final class FakeLlmServer implements AutoCloseable {

    /** One request as the server received it. */
    record Received(String method, String path, Map<String, List<String>> headers, JsonNode body) {

        String header(String name) {
            return headers.entrySet().stream()
                    .filter(e -> e.getKey().equalsIgnoreCase(name))
                    .map(e -> e.getValue().getFirst())
                    .findFirst()
                    .orElse(null);
        }
    }

    private static final ObjectMapper JSON = new ObjectMapper();

    private final Provider provider;
    private final HttpServer server;
    private final ExecutorService threads = Executors.newCachedThreadPool();
    private final CountDownLatch closing = new CountDownLatch(1);
    private final List<Received> received = new CopyOnWriteArrayList<>();
    private volatile String replyText = "";
    private volatile int status = 200;
    private volatile boolean silent;
    private volatile String rawBody;

    FakeLlmServer(Provider provider) throws IOException {
        this.provider = provider;
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.setExecutor(threads);
        server.createContext("/", this::handle);
        server.start();
    }

    /** The base URL a user would configure for this provider's server. */
    URI baseUrl() {
        String root = "http://127.0.0.1:" + server.getAddress().getPort();
        return URI.create(provider == Provider.OLLAMA ? root : root + "/v1");
    }

    /** The model answers with {@code text} as its message content. */
    FakeLlmServer replying(String text) {
        replyText = text;
        return this;
    }

    /** The server fails with {@code code} and a provider-style error body. */
    FakeLlmServer failing(int code) {
        status = code;
        return this;
    }

    /** The server answers 200 with {@code body} as it is, whatever the protocol says. */
    FakeLlmServer answeringRaw(String body) {
        rawBody = body;
        return this;
    }

    /** The server accepts the request and never answers (until closed). */
    FakeLlmServer silent() {
        silent = true;
        return this;
    }

    List<Received> requests() {
        return List.copyOf(received);
    }

    private void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            byte[] body = exchange.getRequestBody().readAllBytes();
            JsonNode json = body.length == 0 ? JSON.nullNode() : JSON.readTree(body);
            received.add(new Received(exchange.getRequestMethod(), exchange.getRequestURI().getPath(),
                    Map.copyOf(exchange.getRequestHeaders()), json));
            if (silent) {
                closing.await(30, TimeUnit.SECONDS);
                return;
            }
            String answer = rawBody != null ? rawBody : status == 200 ? success() : "{\"error\":{\"message\":\"fake failure " + status + "\"}}";
            byte[] bytes = answer.getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().set("Content-Type", "application/json");
            exchange.sendResponseHeaders(status, bytes.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(bytes);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private String success() throws IOException {
        ObjectNode root = JSON.createObjectNode();
        root.put("model", "test-model");
        switch (provider) {
            case OPENAI -> {
                root.put("id", "chatcmpl-1").put("object", "chat.completion").put("created", 1);
                ObjectNode choice = root.putArray("choices").addObject();
                choice.put("index", 0).put("finish_reason", "stop");
                choice.putObject("message").put("role", "assistant").put("content", replyText);
                root.putObject("usage").put("prompt_tokens", 10).put("completion_tokens", 5).put("total_tokens", 15);
            }
            case OLLAMA -> {
                root.put("created_at", "2026-01-01T00:00:00Z").put("done", true).put("done_reason", "stop");
                root.putObject("message").put("role", "assistant").put("content", replyText);
                root.put("prompt_eval_count", 10).put("eval_count", 5);
            }
            case ANTHROPIC -> {
                root.put("id", "msg_1").put("type", "message").put("role", "assistant").put("stop_reason", "end_turn");
                root.putArray("content").addObject().put("type", "text").put("text", replyText);
                root.putObject("usage").put("input_tokens", 10).put("output_tokens", 5);
            }
        }
        return JSON.writeValueAsString(root);
    }

    @Override
    public void close() {
        closing.countDown();
        server.stop(0);
        threads.shutdownNow();
    }

    @Override
    public String toString() {
        return provider.name().toLowerCase(Locale.ROOT) + " server at " + baseUrl();
    }
}
