package io.shellgate.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.shellgate.client.Reply;
import io.shellgate.client.Requests;
import io.shellgate.client.RunDirectory;
import io.shellgate.client.ServerConnection;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.Channels;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The protocol's golden files (docs/protocol/*.json): the written contract between the judge
 * server and its clients: the launcher script, the native client (shellgate-hook, also the drop-in shell under the
 * name shellgate), the javaagent, and the Java client library the javaagent shares with the launcher
 * ({@code io.shellgate.client}). The real server answers each example request as the reply template says (in
 * its key order: the script reads replies by position); each client's request matches the
 * request template, and each client does what the contract says with the example reply, given by
 * a stand-in server that only speaks the contract.
 */
class ProtocolContractTest extends SandboxTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Path GOLDEN = Path.of("..", "docs", "protocol");

    /** One golden exchange. */
    record Golden(String name, JsonNode file) {
        String transport() {
            return file.path("transport").asText();
        }

        String client() {
            return file.path("client").asText();
        }
    }

    static List<Golden> goldens() throws IOException {
        List<Golden> out = new ArrayList<>();
        try (Stream<Path> files = Files.list(GOLDEN)) {
            for (Path f : files.filter(p -> p.toString().endsWith(".json")).sorted().toList()) {
                out.add(new Golden(f.getFileName().toString(), JSON.readTree(f.toFile())));
            }
        }
        assertThat(out).as("golden files in %s", GOLDEN.toAbsolutePath()).hasSizeGreaterThanOrEqualTo(6);
        return out;
    }

    /** The example with the sandbox's places and the secrets filled in, as one line of JSON. */
    private String example(JsonNode node, String token, String proof) throws IOException {
        String text = JSON.writeValueAsString(node);
        return text.replace("<cwd>", box.work.toString()).replace("<home>", box.home.toString())
                .replace("<token>", token == null ? "" : token).replace("<proof>", proof == null ? "" : proof);
    }

    // ---------------------------------------------------------------- the real server

    @Test
    void theServerAnswersEachExampleAsTheReplyTemplateSays() throws Exception {
        box.startServer();
        String token = box.token();
        String proof = Files.readString(box.run.resolve("server.proof")).strip();
        for (Golden g : goldens()) {
            String request = example(g.file().path("example-request"), token, proof);
            List<String> lines = g.transport().equals("tcp") ? overTcp(box.port(), request) : overUnix(box.run.resolve("server.sock"), request);
            // interim lines first (a review step waited on), each as the interim template says, then the reply
            for (String interim : lines.subList(0, lines.size() - 1)) {
                assertThat(Template.problems(g.file().path("interim"), JSON.readTree(interim), true, "interim"))
                        .as("%s: the server's interim line %s", g.name(), interim).isEmpty();
            }
            String reply = lines.getLast();
            JsonNode actual = JSON.readTree(reply);
            assertThat(Template.problems(g.file().path("reply"), actual, true, "reply"))
                    .as("%s: the server's reply %s", g.name(), reply).isEmpty();
            if (g.transport().equals("tcp")) {
                assertThat(actual.path("proof").asText()).as(g.name()).isEqualTo(proof);
            }
        }
    }

    private static List<String> overTcp(int port, String line) throws IOException {
        try (Socket s = new Socket(InetAddress.getLoopbackAddress(), port)) {
            s.setSoTimeout(60_000);
            s.getOutputStream().write((line + "\n").getBytes(StandardCharsets.UTF_8));
            s.getOutputStream().flush();
            return untilReply(new BufferedReader(new InputStreamReader(s.getInputStream(), StandardCharsets.UTF_8)));
        }
    }

    private static List<String> overUnix(Path socket, String line) throws IOException {
        try (SocketChannel ch = SocketChannel.open(StandardProtocolFamily.UNIX)) {
            ch.connect(UnixDomainSocketAddress.of(socket));
            OutputStream out = Channels.newOutputStream(ch);
            out.write((line + "\n").getBytes(StandardCharsets.UTF_8));
            out.flush();
            return untilReply(new BufferedReader(new InputStreamReader(Channels.newInputStream(ch), StandardCharsets.UTF_8)));
        }
    }

    /** The interim lines and, last, the reply. */
    private static List<String> untilReply(BufferedReader in) throws IOException {
        List<String> lines = new ArrayList<>();
        for (String l = in.readLine(); l != null; l = in.readLine()) {
            lines.add(l);
            if (!l.startsWith("{\"v\":1,\"pending\":")) {
                return lines;
            }
        }
        throw new IOException("the server closed the connection after " + lines);
    }

    /** The example's interim lines, to be sent before its reply. */
    private List<String> interim(Golden g, String proof) throws IOException {
        List<String> out = new ArrayList<>();
        for (JsonNode line : g.file().path("example-interim")) {
            String filled = example(line, null, proof);
            assertThat(Template.problems(g.file().path("interim"), JSON.readTree(filled), true, "example-interim"))
                    .as(g.name()).isEmpty();
            out.add(filled);
        }
        return out;
    }

    // ---------------------------------------------------------------- the launcher script

    @Test
    void theLauncherScriptSpeaksTheContract() throws Exception {
        // no JVM to fall back on: whatever the script does, it does with the stand-in's answer
        Map<String, String> env = withoutJava();
        for (Golden g : goldens()) {
            if (!g.transport().equals("tcp")) {
                continue;
            }
            try (StandIn server = new StandIn(box.run)) {
                server.reply = example(g.file().path("example-reply"), null, server.proof);
                server.interim = interim(g, server.proof);
                JsonNode exampleRequest = JSON.readTree(example(g.file().path("example-request"), null, null));
                Processes.Result r;
                if (exampleRequest.path("op").asText().equals("hook")) {
                    r = box.shellgate(env, exampleRequest.path("input").asText().getBytes(StandardCharsets.UTF_8), "hook",
                            exampleRequest.path("agent").asText());
                } else {
                    // the script's own relay: what the native client hands back to it with
                    r = box.shellgate(env, null, "__relayed", "-c", exampleRequest.path("cmd").asText());
                }
                assertThat(server.requests).as("%s: %s", g.name(), r).hasSize(1);
                assertThat(Template.problems(g.file().path("request"), JSON.readTree(server.requests.getFirst()), false, "request"))
                        .as("%s: the script's request %s", g.name(), server.requests.getFirst()).isEmpty();
                JsonNode reply = g.file().path("example-reply");
                if (g.name().equals("hook.json")) {
                    assertPrintedAsGiven(reply, r);
                } else {
                    assertShellDidAsTold(g, r);
                }
            }
        }
        assertThat(box.work.resolve("golden")).doesNotExist();
    }

    /** What the drop-in shell does with a golden exchange's example reply. */
    private static void assertShellDidAsTold(Golden g, Processes.Result r) {
        JsonNode reply = g.file().path("example-reply");
        switch (g.name()) {
            case "shell-c-allow.json" -> {
                assertThat(r.code()).as(r.toString()).isZero();
                assertThat(r.out()).isEqualTo("golden\n");
            }
            case "shell-c-deny.json", "shell-c-ask-refused.json" -> {
                assertThat(r.code()).as(r.toString()).isEqualTo(126);
                String said = g.name().equals("shell-c-deny.json") ? reply.path("message").asText() : reply.path("decided").asText();
                assertThat(r.err()).isEqualTo("shellgate: refused (" + reply.path("rule").asText() + "): " + said + "\n");
                assertThat(r.out()).isEmpty();
            }
            default -> throw new AssertionError("no expectation for the drop-in shell with " + g.name());
        }
    }

    /**
     * The native client as the drop-in shell, both ways it is reached: the launcher script handing
     * its -c over, and the program itself under the name shellgate (argv[0] decides). Its request is
     * the script's, byte for byte but for the process id, and it acts on each example reply as the
     * script does.
     */
    @Test
    void theNativeShellClientSpeaksTheContractWithTheScriptsBytes() throws Exception {
        Path direct = nativeShell();
        Map<String, String> env = withoutJava();
        for (Golden g : goldens()) {
            if (!g.name().startsWith("shell-c-")) {
                continue;
            }
            try (StandIn server = new StandIn(box.run)) {
                server.reply = example(g.file().path("example-reply"), null, server.proof);
                server.interim = interim(g, server.proof);
                String cmd = JSON.readTree(example(g.file().path("example-request"), null, null)).path("cmd").asText();
                Processes.Result script = box.shellgate(env, null, "__relayed", "-c", cmd);
                Processes.Result handed = box.shellgate(env, null, "-c", cmd);
                Processes.Result itself = Processes.run(List.of(direct.toString(), "-c", cmd), env, (byte[]) null, box.work);
                assertThat(server.requests).as("%s: %s %s %s", g.name(), script, handed, itself).hasSize(3);
                for (String request : server.requests) {
                    assertThat(Template.problems(g.file().path("request"), JSON.readTree(request), false, "request"))
                            .as("%s: the request %s", g.name(), request).isEmpty();
                }
                // the script and the program started the same way (the hand-over goes through bash,
                // which passes the environment on in an order of its own)
                assertThat(withoutPid(server.requests.get(2))).as(g.name()).isEqualTo(withoutPid(server.requests.get(0)));
                for (Processes.Result r : List.of(script, handed, itself)) {
                    assertShellDidAsTold(g, r);
                    assertThat(r.outBytes()).isEqualTo(script.outBytes());
                    assertThat(r.errBytes()).isEqualTo(script.errBytes());
                }
            }
        }
        assertThat(box.work.resolve("golden")).doesNotExist();
    }

    private static String withoutPid(String request) {
        return request.replaceFirst("\"pid\":[0-9]+,", "\"pid\":0,");
    }

    /** A link named shellgate to the native client, in a folder of its own. */
    private Path nativeShell() throws IOException {
        Path client = Processes.hookClient();
        Path link = Files.createDirectories(dir.resolve("native-bin")).resolve("shellgate");
        if (!Files.isSymbolicLink(link)) {
            Files.createSymbolicLink(link, client);
        }
        return link;
    }

    /**
     * The contract's first check: none of the server's files is a link. With server.port, .token
     * and .proof links to private files of the same user that hold a listening stand-in's values,
     * no TCP client sends it anything (the launcher script's -c and hook, the native client's -c
     * and hook): each judges on its own, which here (no JVM) is a refusal.
     */
    @Test
    void noClientBelievesServerFilesThatAreLinks() throws Exception {
        Map<String, String> env = withoutJava();
        Golden allow = golden("shell-c-allow.json");
        Golden hook = golden("hook.json");
        byte[] hookInput = JSON.readTree(example(hook.file().path("example-request"), null, null)).path("input").asText()
                .getBytes(StandardCharsets.UTF_8);
        try (StandIn server = new StandIn(box.run)) {
            server.reply = example(allow.file().path("example-reply"), null, server.proof);
            Path elsewhere = Files.createDirectories(dir.resolve("elsewhere"));
            Files.setPosixFilePermissions(elsewhere, PosixFilePermissions.fromString("rwx------"));
            for (String name : List.of("server.port", "server.token", "server.proof")) {
                Path real = Files.move(box.run.resolve(name), elsewhere.resolve(name));
                Files.createSymbolicLink(box.run.resolve(name), real);
            }
            List<Processes.Result> shells = new ArrayList<>(List.of(box.shellgate(env, null, "__relayed", "-c", "echo golden")));
            List<Processes.Result> hooks = new ArrayList<>(List.of(box.shellgate(env, hookInput, "hook", "claude-code")));
            if (Files.isExecutable(Processes.launcher().resolveSibling("shellgate-hook"))) {
                shells.add(Processes.run(List.of(nativeShell().toString(), "-c", "echo golden"), env, (byte[]) null, box.work));
                shells.add(box.shellgate(env, null, "-c", "echo golden"));
                hooks.add(Processes.run(List.of(Processes.hookClient().toString(), "claude-code"), env, hookInput, box.work));
                // a session's --serve answers the line with what that single call prints, and sends nothing either
                Processes.Result served = Processes.run(List.of(Processes.hookClient().toString(), "--serve", "claude-code"),
                        env, (new String(hookInput, StandardCharsets.UTF_8) + "\n").getBytes(StandardCharsets.UTF_8), box.work);
                assertThat(served.code()).as(served.toString()).isZero();
                JsonNode answer = JSON.readTree(served.out().lines().reduce((a, b) -> b).orElseThrow());
                hooks.add(new Processes.Result(answer.path("exit").asInt(),
                        answer.path("stdout").asText().getBytes(StandardCharsets.UTF_8),
                        answer.path("stderr").asText().getBytes(StandardCharsets.UTF_8)));
            }
            assertThat(server.requests).as("requests to a server whose files are links").isEmpty();
            for (Processes.Result r : shells) {
                assertThat(r.code()).as(r.toString()).isEqualTo(126);
                assertThat(r.out()).isEmpty();
                assertThat(r.err()).contains("is a link").contains("refused (judge-error): no judge server answered");
            }
            for (Processes.Result r : hooks) {
                assertThat(r.code()).as(r.toString()).isEqualTo(2);
                assertThat(r.out()).isEmpty();
                assertThat(r.err()).contains("is a link");
            }
        }
        assertThat(box.work.resolve("golden")).doesNotExist();
    }

    @Test
    void theHookClientSpeaksTheContract() throws Exception {
        Path client = Processes.hookClient();
        Map<String, String> env = withoutJava();
        Golden g = golden("hook.json");
        try (StandIn server = new StandIn(box.run)) {
            server.reply = example(g.file().path("example-reply"), null, server.proof);
            server.interim = interim(g, server.proof);
            JsonNode exampleRequest = JSON.readTree(example(g.file().path("example-request"), null, null));
            Processes.Result r = Processes.run(List.of(client.toString(), exampleRequest.path("agent").asText()), env,
                    exampleRequest.path("input").asText().getBytes(StandardCharsets.UTF_8), box.work);
            assertThat(server.requests).as(r.toString()).hasSize(1);
            assertThat(Template.problems(g.file().path("request"), JSON.readTree(server.requests.getFirst()), false, "request"))
                    .as("shellgate-hook's request %s", server.requests.getFirst()).isEmpty();
            assertPrintedAsGiven(g.file().path("example-reply"), r);
        }
    }

    /**
     * {@code shellgate-hook --serve AGENT}, which a plugin keeps for a whole agent session: each input
     * line is a request of its own, as a single call's (the same template), and each example reply
     * comes back as one line with what the single call would print and exit with, after a
     * {@code {"wait":N}} line for each interim line, N its seconds.
     */
    @Test
    void theHookClientsServeModeRelaysEachLineAsASingleCallWould() throws Exception {
        Path client = Processes.hookClient();
        Map<String, String> env = withoutJava();
        Golden g = golden("hook.json");
        try (StandIn server = new StandIn(box.run)) {
            server.reply = example(g.file().path("example-reply"), null, server.proof);
            server.interim = interim(g, server.proof);
            JsonNode exampleRequest = JSON.readTree(example(g.file().path("example-request"), null, null));
            String input = exampleRequest.path("input").asText();
            Processes.Result r = Processes.run(List.of(client.toString(), "--serve", exampleRequest.path("agent").asText()),
                    env, (input + "\n" + input + "\n").getBytes(StandardCharsets.UTF_8), box.work);
            assertThat(r.code()).as(r.toString()).isZero();
            assertThat(server.requests).as(r.toString()).hasSize(2);
            for (String request : server.requests) {
                assertThat(Template.problems(g.file().path("request"), JSON.readTree(request), false, "request"))
                        .as("shellgate-hook --serve's request %s", request).isEmpty();
                assertThat(JSON.readTree(request).path("input").asText()).isEqualTo(input);
            }
            JsonNode reply = g.file().path("example-reply");
            ObjectNode answer = JSON.createObjectNode().put("exit", reply.path("exit").asInt())
                    .put("stdout", reply.path("stdout").asText()).put("stderr", reply.path("stderr").asText());
            List<String> expected = new ArrayList<>();
            for (int i = 0; i < 2; i++) {
                g.file().path("example-interim").forEach(line -> expected.add("{\"wait\":" + line.path("seconds").asInt() + "}"));
                expected.add(JSON.writeValueAsString(answer));
            }
            assertThat(r.out().lines().toList()).isEqualTo(expected);
            assertThat(r.err()).isEmpty();
            // the second line went over the connection of the first
            assertThat(server.tcpConnections).as(r.toString()).hasValue(1);
        }
    }

    /**
     * A kept connection that the server closed meanwhile (as it closes one quiet for 10 s) is replaced
     * by a new one for the next line, which gets its answer from the server, not from a JVM of the
     * script's own (there is no Java here: that would be an error answer).
     */
    @Test
    void theHookClientsServeModeReconnectsWhenTheServerClosedTheKeptConnection() throws Exception {
        Path client = Processes.hookClient();
        Map<String, String> env = withoutJava();
        Golden g = golden("hook.json");
        try (StandIn server = new StandIn(box.run)) {
            server.reply = example(g.file().path("example-reply"), null, server.proof);
            server.closeAfterReply = true;
            JsonNode exampleRequest = JSON.readTree(example(g.file().path("example-request"), null, null));
            String input = exampleRequest.path("input").asText();
            Processes.Result r = Processes.run(List.of(client.toString(), "--serve", exampleRequest.path("agent").asText()),
                    env, (input + "\n").repeat(3).getBytes(StandardCharsets.UTF_8), box.work);
            assertThat(r.code()).as(r.toString()).isZero();
            assertThat(server.requests).as(r.toString()).hasSize(3);
            assertThat(server.tcpConnections).as(r.toString()).hasValue(3);
            JsonNode reply = g.file().path("example-reply");
            String answer = JSON.writeValueAsString(JSON.createObjectNode().put("exit", reply.path("exit").asInt())
                    .put("stdout", reply.path("stdout").asText()).put("stderr", reply.path("stderr").asText()));
            assertThat(r.out().lines().toList()).as(r.toString()).containsExactly(answer, answer, answer);
        }
    }

    /** A hook relay printed the reply's stdout and stderr as given and exited with its exit code. */
    private static void assertPrintedAsGiven(JsonNode reply, Processes.Result r) {
        assertThat(r.code()).as(r.toString()).isEqualTo(reply.path("exit").asInt());
        assertThat(r.out()).isEqualTo(reply.path("stdout").asText());
        assertThat(r.err()).isEqualTo(reply.path("stderr").asText());
    }

    // ---------------------------------------------------------------- the javaagent

    @Test
    void theJavaagentSpeaksTheContract() throws Exception {
        AgentJvm jvm = AgentJvm.of(17, "server");
        for (Golden g : goldens()) {
            if (!g.transport().equals("unix") || !g.client().startsWith("javaagent")) {
                continue;
            }
            try (StandIn server = new StandIn(box.run)) {
                server.reply = example(g.file().path("example-reply"), null, null);
                server.interim = interim(g, null);
                JsonNode exampleRequest = JSON.readTree(example(g.file().path("example-request"), null, null));
                List<String> args = new ArrayList<>(List.of("pb"));
                exampleRequest.path("argv").forEach(a -> args.add(Path.of(a.asText()).getFileName().toString()));
                Processes.Result r = jvm.run(box, "", args.toArray(String[]::new));
                assertThat(server.requests).as("%s: %s", g.name(), r).isNotEmpty();
                assertThat(Template.problems(g.file().path("request"), JSON.readTree(server.requests.getFirst()), false, "request"))
                        .as("%s: the agent's request %s", g.name(), server.requests.getFirst()).isEmpty();
                JsonNode reply = g.file().path("example-reply");
                switch (g.name()) {
                    case "javaagent-allow.json" -> assertThat(r.out().strip()).as(r.toString()).isEqualTo("RAN exit=0 out=golden");
                    case "javaagent-ask-refused.json" -> assertThat(r.out()).as(r.toString())
                            .contains("REFUSED class=io.shellgate.interceptor.ShellgateRefusedException rule=" + reply.path("rule").asText()
                                    + " tier=ask msg=shellgate: refused (" + reply.path("rule").asText() + "): "
                                    + reply.path("decided").asText());
                    default -> throw new AssertionError("no expectation for the javaagent with " + g.name());
                }
            }
        }
        assertThat(box.work.resolve("golden")).doesNotExist();
    }

    // ---------------------------------------------------------------- the Java client (io.shellgate.client)

    @Test
    void theJavaClientSpeaksTheContract() throws Exception {
        for (Golden g : goldens()) {
            if (g.file().has("example-lines")) {
                // check --batch's stream of lines after one request: its own relay, held by theBatchRelaysSpeakTheContract
                continue;
            }
            try (StandIn server = new StandIn(box.run)) {
                boolean tcp = g.transport().equals("tcp");
                server.reply = example(g.file().path("example-reply"), null, tcp ? server.proof : null);
                server.interim = interim(g, tcp ? server.proof : null);
                RunDirectory run = new RunDirectory(box.run);
                Reply reply;
                try (ServerConnection c = tcp ? ServerConnection.tcp(run) : ServerConnection.unix(run)) {
                    reply = c.exchange(clientRequest(g, c.token()), 60_000);
                }
                assertThat(server.requests).as(g.name()).hasSize(1);
                assertThat(Template.problems(g.file().path("request"), JSON.readTree(server.requests.getFirst()), false, "request"))
                        .as("%s: the Java client's request %s", g.name(), server.requests.getFirst()).isEmpty();
                JsonNode example = g.file().path("example-reply");
                switch (g.name()) {
                    case "shell-c-allow.json", "javaagent-allow.json" ->
                            assertThat(reply).as(g.name()).isInstanceOfSatisfying(Reply.Verdict.class, v -> assertThat(v.mayRun()).isTrue());
                    case "shell-c-deny.json", "shell-c-ask-refused.json", "javaagent-ask-refused.json" ->
                            assertThat(reply).as(g.name()).isInstanceOfSatisfying(Reply.Verdict.class, v -> {
                                assertThat(v.mayRun()).isFalse();
                                assertThat(v.rule()).isEqualTo(example.path("rule").asText());
                                assertThat(v.sentence()).isEqualTo(example.path(g.name().contains("deny") ? "message" : "decided").asText());
                            });
                    case "hook.json" -> assertThat(reply).isEqualTo(new Reply.HookAnswer(example.path("exit").asInt(),
                            example.path("stdout").asText(), example.path("stderr").asText()));
                    default -> throw new AssertionError("no expectation for the Java client with " + g.name());
                }
            }
        }
    }

    /** The golden example request as the Java client writes it, with its token on TCP. */
    private String clientRequest(Golden g, String token) throws IOException {
        Map<String, Object> fields = JSON.readValue(example(g.file().path("example-request"), null, null),
                new com.fasterxml.jackson.core.type.TypeReference<java.util.LinkedHashMap<String, Object>>() {});
        fields.remove("v");
        fields.remove("token");
        return Requests.of(fields, token);
    }

    @Test
    void theJavaClientBelievesNoReplyWithoutTheProof() throws Exception {
        try (StandIn server = new StandIn(box.run)) {
            server.reply = "{\"v\":1,\"tier\":\"allow\",\"rule\":\"r\",\"message\":\"m\",\"proof\":\"" + "0".repeat(64) + "\"}";
            try (ServerConnection c = ServerConnection.tcp(new RunDirectory(box.run))) {
                assertThat(c.exchange(Requests.ping(c.token()), 60_000)).isInstanceOf(Reply.NoAnswer.class);
            }
        }
    }

    @Test
    void theJavaClientBelievesNoServerWhoseFilesAreLinks() throws Exception {
        Path elsewhere = Files.createDirectories(box.root.resolve("elsewhere"));
        for (String name : List.of("server.port", "server.token", "server.proof")) {
            try (StandIn server = new StandIn(box.run)) {
                server.reply = "{\"v\":1,\"pong\":true,\"pid\":1,\"proof\":\"" + server.proof + "\"}";
                // the same content, this user's own, but through a link: the contract forbids it
                Path file = box.run.resolve(name);
                Path copy = Files.copy(file, elsewhere.resolve(name), java.nio.file.StandardCopyOption.REPLACE_EXISTING);
                Files.delete(file);
                Files.createSymbolicLink(file, copy);
                RunDirectory run = new RunDirectory(box.run);
                assertThat(run.problem()).isEqualTo(file + " is a symbolic link");
                org.assertj.core.api.Assertions.assertThatThrownBy(() -> ServerConnection.tcp(run))
                        .isInstanceOf(ServerConnection.Untrusted.class).hasMessageContaining(name + " is a symbolic link");
                assertThat(server.requests).as(name).isEmpty();
            }
        }
    }

    // ---------------------------------------------------------------- check --batch

    /**
     * check --batch relayed both ways: by the native client (the launcher script hands the batch
     * over to it where the build made one) and by the JVM's BatchRelay (the script's own path, as
     * after the native client handed it back): the same request but for the environment's {@code _},
     * which bash sets to the program it starts, the same lines sent, the same bytes printed.
     */
    @Test
    void theBatchRelaysSpeakTheContract() throws Exception {
        Golden g = golden("check-batch.json");
        List<JsonNode> headers = new ArrayList<>();
        List<String> outputs = new ArrayList<>();
        for (List<String> way : List.of(List.of("check", "--batch"), List.of("__relayed", "check", "--batch"))) {
            try (StandIn server = new StandIn(box.run)) {
                server.reply = example(g.file().path("example-reply"), null, null);
                server.batchAnswers = new ArrayList<>();
                g.file().path("example-answers").forEach(a -> server.batchAnswers.add(a.asText()));
                StringBuilder input = new StringBuilder();
                g.file().path("example-lines").forEach(l -> input.append(l.asText()).append('\n'));
                Processes.Result r = box.shellgate(box.env, input.toString().getBytes(StandardCharsets.UTF_8),
                        way.toArray(String[]::new));
                assertThat(server.requests).as("%s: %s", way, r).isNotEmpty();
                JsonNode header = JSON.readTree(server.requests.getFirst());
                assertThat(Template.problems(g.file().path("request"), header, false, "request"))
                        .as("%s: check --batch's request %s", way, server.requests.getFirst()).isEmpty();
                assertThat(server.requests.subList(1, server.requests.size())).as("%s: %s", way, r)
                        .isEqualTo(JSON.convertValue(g.file().path("example-lines"), List.class));
                assertThat(r.code()).as("%s: %s", way, r).isZero();
                assertThat(r.out()).as("%s", way).isEqualTo(String.join("\n", server.batchAnswers) + "\n");
                ((ObjectNode) header.path("env")).remove("_");
                headers.add(header);
                outputs.add(r.out());
            }
            try (StandIn server = new StandIn(box.run)) {
                // a server that goes away before the end mark: the lines it answered, and an error, never a silent end
                server.reply = example(g.file().path("example-reply"), null, null);
                server.batchAnswers = new ArrayList<>(List.of(JSON.convertValue(g.file().path("example-answers"), List.class)
                        .getFirst().toString()));
                server.batchEnds = false;
                Processes.Result r = box.shellgate(box.env, "{\"cmd\": \"ls\"}\n".getBytes(StandardCharsets.UTF_8),
                        way.toArray(String[]::new));
                assertThat(r.code()).as("%s: %s", way, r).isEqualTo(4);
                assertThat(r.out()).as("%s", way).isEqualTo(server.batchAnswers.getFirst() + "\n");
                assertThat(r.err()).as("%s", way).contains("stopped before every line was answered");
            }
            try (StandIn server = new StandIn(box.run)) {
                // a server that refuses the batch: judged in a JVM of its own, every line still answered
                server.reply = "{\"v\":1,\"error\":\"bad-request\",\"message\":\"not this one\"}";
                Processes.Result r = box.shellgate(box.env, "{\"cmd\": \"ls -la\"}\n".getBytes(StandardCharsets.UTF_8),
                        way.toArray(String[]::new));
                // asked once by each relay that tried (the native client hands back to the script, whose JVM asks again)
                assertThat(server.requests).as("%s: %s", way, r).isNotEmpty()
                        .allSatisfy(q -> assertThat(JSON.readTree(q).path("op").asText()).isEqualTo("batch"));
                assertThat(r.code()).as("%s: %s", way, r).isZero();
                assertThat(JSON.readTree(r.out()).path("tier").asText()).as("%s: %s", way, r).isEqualTo("allow");
            }
        }
        assertThat(headers.get(0)).isEqualTo(headers.get(1));
        assertThat(outputs.get(0)).isEqualTo(outputs.get(1));
    }

    /** The native client relays the batch itself: no JVM starts for it (a JVM would leave its traces in the process tree). */
    @Test
    void theNativeClientRelaysABatchWithoutAJvm() throws Exception {
        Path client = Processes.hookClient();
        Golden g = golden("check-batch.json");
        try (StandIn server = new StandIn(box.run)) {
            server.reply = example(g.file().path("example-reply"), null, null);
            server.batchAnswers = new ArrayList<>(List.of(JSON.convertValue(g.file().path("example-answers"), List.class)
                    .getFirst().toString()));
            // no Java anywhere: a JVM of its own could not start, so an answer came through the native relay
            Map<String, String> env = withoutJava();
            env.put("PATH", "/usr/bin:/bin");
            Processes.Result r = Processes.run(List.of(nativeShell().toString(), "check", "--batch", "--cwd", box.work.toString()),
                    env, "{\"cmd\": \"ls\"}\n".getBytes(StandardCharsets.UTF_8), box.work);
            assertThat(r.code()).as(r.toString()).isZero();
            assertThat(r.out()).isEqualTo(server.batchAnswers.getFirst() + "\n");
            assertThat(JSON.readTree(server.requests.getFirst()).path("env").path("SHELLGATE_LAUNCHER").asText())
                    .isEqualTo(client.resolveSibling("shellgate").toString());
        }
    }

    /** The golden exchange in docs/protocol/NAME. */
    private static Golden golden(String name) throws IOException {
        return goldens().stream().filter(x -> x.name().equals(name)).findFirst().orElseThrow();
    }

    /**
     * The sandbox's environment with no Java to be found: a client that handed its work to a JVM
     * of its own would fail, so every answer comes from the server it asked.
     */
    private Map<String, String> withoutJava() {
        Map<String, String> env = new java.util.HashMap<>(box.env);
        env.put("SHELLGATE_JAVA_HOME", box.root.resolve("no-jdk-here").toString());
        return env;
    }

    // ---------------------------------------------------------------- a stand-in server

    /**
     * Publishes a run directory as the server does (0700, files 0600, a port, a token, a proof and
     * a Unix socket) and answers every request line with {@link #reply}, recording the requests.
     */
    private static final class StandIn implements AutoCloseable {
        final List<String> requests = new CopyOnWriteArrayList<>();
        final String proof = hex();
        volatile String reply;
        /** Lines sent before each reply: interim lines of a review step. */
        volatile List<String> interim = List.of();
        /** For a {@code batch} request: the answers to its lines, in order; null for other requests. */
        volatile List<String> batchAnswers;
        /** Whether the batch ends with its end mark (a server that goes away does not send it). */
        volatile boolean batchEnds = true;
        /** Whether each connection is closed after its first reply, as a server closes one that was quiet too long. */
        volatile boolean closeAfterReply;
        /** How many TCP connections were accepted. */
        final java.util.concurrent.atomic.AtomicInteger tcpConnections = new java.util.concurrent.atomic.AtomicInteger();
        private final Path run;
        private final ServerSocket tcp;
        private final ServerSocketChannel unix;

        StandIn(Path run) throws IOException {
            this.run = run;
            Files.createDirectories(run);
            Files.setPosixFilePermissions(run, PosixFilePermissions.fromString("rwx------"));
            tcp = new ServerSocket(0, 16, InetAddress.getLoopbackAddress());
            Files.deleteIfExists(run.resolve("server.sock"));
            unix = ServerSocketChannel.open(StandardProtocolFamily.UNIX);
            unix.bind(UnixDomainSocketAddress.of(run.resolve("server.sock")));
            Files.setPosixFilePermissions(run.resolve("server.sock"), PosixFilePermissions.fromString("rw-------"));
            write("server.trusted", "");
            write("server.token", hex() + "\n");
            write("server.proof", proof + "\n");
            write("server.port", tcp.getLocalPort() + "\n");
            write("server.pid", ProcessHandle.current().pid() + "\n");
            Processes.thread(() -> {
                while (!tcp.isClosed()) {
                    try (Socket s = tcp.accept()) {
                        tcpConnections.incrementAndGet();
                        answer(new BufferedReader(new InputStreamReader(s.getInputStream(), StandardCharsets.UTF_8)),
                                s.getOutputStream());
                    } catch (IOException e) {
                        // closed
                    }
                }
            });
            Processes.thread(() -> {
                while (unix.isOpen()) {
                    try (SocketChannel ch = unix.accept()) {
                        answer(new BufferedReader(new InputStreamReader(Channels.newInputStream(ch), StandardCharsets.UTF_8)),
                                Channels.newOutputStream(ch));
                    } catch (IOException e) {
                        // closed
                    }
                }
            });
        }

        private void answer(BufferedReader in, OutputStream out) throws IOException {
            for (String line = in.readLine(); line != null; line = in.readLine()) {
                requests.add(line);
                for (String i : interim) {
                    out.write((i + "\n").getBytes(StandardCharsets.UTF_8));
                    out.flush();
                }
                out.write((reply + "\n").getBytes(StandardCharsets.UTF_8));
                out.flush();
                if (closeAfterReply) {
                    return;
                }
                if (batchAnswers != null) {
                    // the rest of the connection is the batch's: its lines, answered in order, then the end mark
                    Iterator<String> answers = batchAnswers.iterator();
                    for (String l = in.readLine(); l != null; l = in.readLine()) {
                        requests.add(l);
                        if (answers.hasNext()) {
                            out.write((answers.next() + "\n").getBytes(StandardCharsets.UTF_8));
                            out.flush();
                        } else if (!batchEnds) {
                            return;
                        }
                    }
                    if (batchEnds) {
                        out.write(0);
                        out.flush();
                    }
                    return;
                }
            }
        }

        private void write(String name, String text) throws IOException {
            Path f = run.resolve(name);
            Files.deleteIfExists(f);
            Files.createFile(f, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
            Files.writeString(f, text);
        }

        private static String hex() {
            byte[] b = new byte[32];
            new SecureRandom().nextBytes(b);
            return HexFormat.of().formatHex(b);
        }

        @Override
        public void close() throws IOException {
            tcp.close();
            unix.close();
            for (String f : List.of("server.sock", "server.port", "server.token", "server.proof", "server.trusted", "server.pid")) {
                Files.deleteIfExists(run.resolve(f));
            }
        }
    }

    // ---------------------------------------------------------------- templates

    /**
     * A template is JSON whose strings {@code <string>}, {@code <string-or-null>}, {@code <int>},
     * {@code <hex64>}, {@code <strings>} (an array of strings), {@code <string-map>} (an object of
     * strings) and {@code <any>} stand for any such value; other values must be equal. A key ending
     * in {@code ?} may be missing; no key outside the template may be there. Replies are read in
     * order: their keys must come in the template's order.
     */
    static final class Template {

        static List<String> problems(JsonNode template, JsonNode actual, boolean ordered, String at) {
            List<String> out = new ArrayList<>();
            check(template, actual, ordered, at, out);
            return out;
        }

        private static void check(JsonNode t, JsonNode a, boolean ordered, String at, List<String> out) {
            if (t.isTextual() && t.asText().startsWith("<") && t.asText().endsWith(">")) {
                boolean ok = switch (t.asText()) {
                    case "<string>" -> a.isTextual();
                    case "<string-or-null>" -> a.isTextual() || a.isNull();
                    case "<int>" -> a.isIntegralNumber();
                    case "<hex64>" -> a.isTextual() && a.asText().matches("[0-9a-f]{64}");
                    case "<strings>" -> a.isArray() && allText(a.elements());
                    case "<string-map>" -> a.isObject() && allText(a.elements());
                    case "<any>" -> true;
                    default -> {
                        out.add(at + ": unknown placeholder " + t.asText());
                        yield true;
                    }
                };
                if (!ok) {
                    out.add(at + ": " + a + " is not " + t.asText());
                }
                return;
            }
            if (t.isObject()) {
                if (!a.isObject()) {
                    out.add(at + ": " + a + " is not an object");
                    return;
                }
                List<String> keys = new ArrayList<>();
                t.fieldNames().forEachRemaining(keys::add);
                int last = -1;
                for (Iterator<String> it = a.fieldNames(); it.hasNext();) {
                    String k = it.next();
                    int i = keys.indexOf(k) >= 0 ? keys.indexOf(k) : keys.indexOf(k + "?");
                    if (i < 0) {
                        out.add(at + ": the key \"" + k + "\" is not in the contract");
                        continue;
                    }
                    if (ordered && i < last) {
                        out.add(at + ": the key \"" + k + "\" comes out of the contract's order");
                    }
                    last = Math.max(last, i);
                    check(t.get(keys.get(i)), a.get(k), ordered, at + "." + k, out);
                }
                for (String k : keys) {
                    if (!k.endsWith("?") && !a.has(k)) {
                        out.add(at + ": the key \"" + k + "\" is missing");
                    }
                }
                return;
            }
            if (!t.equals(a)) {
                out.add(at + ": " + a + " is not " + t);
            }
        }

        private static boolean allText(Iterator<JsonNode> values) {
            while (values.hasNext()) {
                if (!values.next().isTextual()) {
                    return false;
                }
            }
            return true;
        }
    }

    @Test
    void theTemplatesThemselvesCatchWhatTheyShould() {
        ObjectNode template = (ObjectNode) JSON.createObjectNode().put("v", 1).put("tier", "<string>").put("warning?", "<string>")
                .put("proof", "<hex64>");
        ObjectNode good = JSON.createObjectNode().put("v", 1).put("tier", "allow").put("proof", "a".repeat(64));
        assertThat(Template.problems(template, good, true, "r")).isEmpty();
        ObjectNode reordered = JSON.createObjectNode().put("tier", "allow").put("v", 1).put("proof", "a".repeat(64));
        assertThat(Template.problems(template, reordered, true, "r")).containsExactly("r: the key \"v\" comes out of the contract's order");
        assertThat(Template.problems(template, reordered, false, "r")).isEmpty();
        ObjectNode extra = good.deepCopy().put("more", true);
        assertThat(Template.problems(template, extra, true, "r")).containsExactly("r: the key \"more\" is not in the contract");
        ObjectNode missing = JSON.createObjectNode().put("v", 1).put("tier", "allow");
        assertThat(Template.problems(template, missing, true, "r")).containsExactly("r: the key \"proof\" is missing");
        ObjectNode wrong = JSON.createObjectNode().put("v", 2).put("tier", 3).put("proof", "xyz");
        assertThat(Template.problems(template, wrong, true, "r")).hasSize(3);
    }
}
