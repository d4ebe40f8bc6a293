package io.shellgate.launcher.internal.server;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.shellgate.judge.Dialect;
import io.shellgate.judge.Judge;
import io.shellgate.judge.JudgeRequest;
import io.shellgate.judge.Verdict;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The lines of {@code check --batch}, in a JVM of its own or in the judge server: each input line
 * judged alone, several at once on all cores, and answered in input order, one output line per
 * input line. A line that cannot be read or judged gets an error line in its place, never an allow.
 *
 * @param judge the judge of the batch's policy (thread-safe: the judge server shares one between connections)
 * @param cwd the working directory of lines without {@code cwd}
 * @param dialect the dialect of lines without {@code dialect}
 * @param env the environment of lines without {@code env}
 */
public record BatchLines(Judge judge, Path cwd, Dialect dialect, Map<String, String> env) {

    /** How many answers may wait for an earlier one: bounds the memory a long batch holds. */
    private static final int WINDOW = 512;

    /**
     * Answers every line of {@code input} on {@code out} until the input ends, with {@code threads}
     * judging at once; flushes whenever the next answer is not ready yet, so that a client that
     * writes a line and waits for its answer gets it.
     */
    public void run(InputStream input, Writer out, int threads) throws IOException {
        BufferedReader in = new BufferedReader(new InputStreamReader(input, StandardCharsets.UTF_8));
        if (threads <= 1) {
            String line;
            int number = 0;
            while ((line = in.readLine()) != null) {
                out.write(answer(line, ++number));
                out.write('\n');
                out.flush();
            }
            return;
        }
        ExecutorService pool = Executors.newFixedThreadPool(threads, r -> Thread.ofPlatform().daemon()
                .name("shellgate-batch").unstarted(r));
        BlockingQueue<Future<String>> pending = new ArrayBlockingQueue<>(WINDOW);
        Future<String> end = CompletableFuture.completedFuture(null);
        AtomicReference<IOException> failed = new AtomicReference<>();
        AtomicBoolean stopped = new AtomicBoolean();
        // the lines are read on a thread of their own, so that reading waits on neither judging nor writing
        Thread reader = Thread.ofPlatform().daemon().name("shellgate-batch-reader").start(() -> {
            try {
                String line;
                int number = 0;
                while (!stopped.get() && (line = in.readLine()) != null) {
                    String l = line;
                    int n = ++number;
                    pending.put(pool.submit(() -> answer(l, n)));
                }
            } catch (IOException e) {
                failed.set(e);
            } catch (InterruptedException e) {
                // the writer stopped
            } finally {
                try {
                    pending.put(end);
                } catch (InterruptedException e) {
                    // the writer stopped
                }
            }
        });
        try {
            while (true) {
                Future<String> next = pending.poll();
                if (next == null) {
                    out.flush();
                    next = pending.take();
                }
                if (next == end) {
                    break;
                }
                if (!next.isDone()) {
                    out.flush();
                }
                out.write(next.get());
                out.write('\n');
            }
            out.flush();
            if (failed.get() != null) {
                throw failed.get();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted", e);
        } catch (ExecutionException e) {
            // answer() turns every failure of a line into that line's error: nothing else is expected here
            throw new IOException("a line could not be answered: " + e.getCause(), e);
        } finally {
            stopped.set(true);
            reader.interrupt();
            pool.shutdownNow();
        }
    }

    /** One output line for input line {@code number}: a verdict, or an error (never an allow). */
    public String answer(String line, int number) {
        JsonNode node;
        try {
            node = VerdictJson.MAPPER.readTree(line);
        } catch (JsonProcessingException e) {
            return error(number, null, "not valid JSON: " + e.getOriginalMessage());
        }
        if (node == null || !node.isObject()) {
            return error(number, null, "each line must be a JSON object like {\"cmd\": \"ls -la\"}");
        }
        JsonNode cmd = node.get("cmd");
        if (cmd == null || !cmd.isTextual()) {
            return error(number, null, "the field \"cmd\" (a string) is required");
        }
        try {
            return judged(node, cmd.asText(), number);
        } catch (RuntimeException | StackOverflowError e) {
            // a bug in judging one line is that line's error; the lines after it are still judged
            return error(number, cmd.asText(), "the line could not be judged: " + e);
        }
    }

    private String judged(JsonNode node, String cmd, int number) {
        Dialect d = dialect;
        if (node.has("dialect")) {
            d = node.get("dialect").isTextual() ? Dialect.parse(node.get("dialect").asText()) : null;
            if (d == null) {
                return error(number, cmd, "\"dialect\" must be one of bash, zsh, sh, powershell, cmd");
            }
        }
        Path dir = cwd;
        if (node.has("cwd")) {
            if (!node.get("cwd").isTextual() || !node.get("cwd").asText().startsWith("/")) {
                return error(number, cmd, "\"cwd\" must be an absolute path");
            }
            dir = Path.of(node.get("cwd").asText()).normalize();
            if (!Files.isDirectory(dir)) {
                return error(number, cmd, "\"cwd\" " + dir + " is not a directory");
            }
        }
        Map<String, String> environment = env;
        if (node.has("env")) {
            JsonNode e = node.get("env");
            if (!e.isObject()) {
                return error(number, cmd, "\"env\" must be an object of strings");
            }
            Map<String, String> given = new HashMap<>();
            for (Map.Entry<String, JsonNode> f : e.properties()) {
                if (!f.getValue().isTextual()) {
                    return error(number, cmd, "\"env\"." + f.getKey() + " must be a string");
                }
                given.put(f.getKey(), f.getValue().asText());
            }
            environment = given;
        }
        Verdict v = judge.judge(new JudgeRequest(cmd, d, dir, environment));
        return VerdictJson.of(cmd, v).toString();
    }

    private static String error(int number, String cmd, String message) {
        ObjectNode out = VerdictJson.MAPPER.createObjectNode();
        out.put("line", number);
        if (cmd != null) {
            out.put("cmd", cmd);
        }
        out.put("error", message);
        return out.toString();
    }
}
