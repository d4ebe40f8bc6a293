package io.shellgate.it.agents;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * A model server on 127.0.0.1 that speaks one provider's protocol and plays a two-turn script: a
 * request that offers the agent's shell tool and carries no tool result yet is answered with a call
 * of that tool for {@link #command}; a request that carries the tool's result is answered with
 * {@link #FINAL_TEXT}, so the agent ends its run. Everything else an agent asks at start (model
 * lists, token counts, side questions to a small model) gets a harmless answer at once.
 *
 * <p>The script is decided from each request's content, never from how many requests came before:
 * agents retry, and several send side requests in between, in an order that changes between versions.
 * Every request and every tool result is recorded for the tests to inspect.
 */
public abstract sealed class StubModel implements AutoCloseable
        permits AnthropicStub, GeminiStub, ResponsesStub, ChatCompletionsStub {

    /** The text of the last model turn; an agent prints it as its answer. */
    public static final String FINAL_TEXT = "Stub model: the command has run, nothing more to do.";

    static final ObjectMapper JSON = new ObjectMapper();

    /** One request as it arrived. */
    public record Request(String method, String path, String query, Map<String, List<String>> headers, String body) {
        JsonNode json() {
            try {
                return body.isBlank() ? JSON.createObjectNode() : JSON.readTree(body);
            } catch (IOException e) {
                return JSON.createObjectNode();
            }
        }
    }

    /** An answer: status, content type and body (a whole SSE stream for a streaming call). */
    record Reply(int status, String contentType, String body) {
        static Reply json(Object node) {
            return new Reply(200, "application/json", node.toString());
        }

        static Reply sse(String events) {
            return new Reply(200, "text/event-stream", events);
        }
    }

    final String command;
    private final HttpServer server;
    private final ExecutorService threads = Executors.newCachedThreadPool(Thread.ofPlatform().daemon().factory());
    private final List<Request> requests = new ArrayList<>();
    private final List<String> toolResults = new ArrayList<>();

    StubModel(String command) throws IOException {
        this.command = command;
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/", this::handle);
        server.setExecutor(threads);
        server.start();
    }

    /** {@code http://127.0.0.1:PORT}, without a trailing slash. */
    public String baseUrl() {
        return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    public synchronized List<Request> requests() {
        return List.copyOf(requests);
    }

    /** The tool results the agent sent back, in order: the command's output or the refusal it got. */
    public synchronized List<String> toolResults() {
        return List.copyOf(toolResults);
    }

    synchronized void recordToolResult(String text) {
        toolResults.add(text);
    }

    /** How this protocol answers one request. */
    abstract Reply answer(Request request) throws IOException;

    private void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
            Request request = new Request(exchange.getRequestMethod(), exchange.getRequestURI().getPath(),
                    exchange.getRequestURI().getRawQuery(), Map.copyOf(exchange.getRequestHeaders()), body);
            synchronized (this) {
                requests.add(request);
            }
            Reply reply;
            try {
                reply = answer(request);
            } catch (RuntimeException e) {
                reply = new Reply(500, "application/json", "{\"error\":{\"message\":\"stub: " + e + "\"}}");
            }
            byte[] bytes = reply.body().getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().set("Content-Type", reply.contentType());
            if (reply.contentType().equals("text/event-stream")) {
                exchange.getResponseHeaders().set("Cache-Control", "no-cache");
            }
            exchange.sendResponseHeaders(reply.status(), bytes.length == 0 ? -1 : bytes.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(bytes);
            }
        }
    }

    static ObjectNode object() {
        return JSON.createObjectNode();
    }

    /** One server-sent event, with an event name when the protocol uses them. */
    static String event(String name, JsonNode data) {
        return (name == null ? "" : "event: " + name + "\n") + "data: " + data + "\n\n";
    }

    @Override
    public void close() {
        server.stop(0);
        threads.shutdownNow();
    }
}
