package io.shellgate.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
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
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The judge server as a real process: who may talk to it, what it does with hostile input, how it
 * reloads policies and stops, and what clients do when it dies or lies about being one.
 */
class JudgeServerTest extends SandboxTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    /** One line to the TCP port and the reply lines until the server closes or {@code replies} came. */
    private List<JsonNode> tcp(int replies, String... lines) throws IOException {
        try (Socket s = new Socket(InetAddress.getLoopbackAddress(), box.port())) {
            s.setSoTimeout(20_000);
            OutputStream out = s.getOutputStream();
            for (String line : lines) {
                out.write((line + "\n").getBytes(StandardCharsets.UTF_8));
            }
            out.flush();
            return read(new BufferedReader(new InputStreamReader(s.getInputStream(), StandardCharsets.UTF_8)), replies);
        }
    }

    private static List<JsonNode> read(BufferedReader in, int replies) throws IOException {
        List<JsonNode> got = new java.util.ArrayList<>();
        String line;
        while (got.size() < replies && (line = in.readLine()) != null) {
            got.add(JSON.readTree(line));
        }
        return got;
    }

    private String judge(String cmd, String token) {
        ObjectNode r = JSON.createObjectNode();
        r.put("v", 1);
        r.put("op", "judge");
        r.put("cmd", cmd);
        r.put("cwd", box.work.toString());
        r.putObject("env").put("PATH", "/usr/bin:/bin").put("HOME", box.home.toString());
        if (token != null) {
            r.put("token", token);
        }
        return r.toString();
    }

    @Test
    void itsFilesArePrivate() throws Exception {
        box.startServer();
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(box.run))).isEqualTo("rwx------");
        for (String f : List.of("server.token", "server.proof", "server.port", "server.pid", "server.sock")) {
            assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(box.run.resolve(f)))).as(f).isEqualTo("rw-------");
        }
        assertThat(box.token()).matches("[0-9a-f]{64}");
    }

    @Test
    void aTcpRequestNeedsTheToken() throws Exception {
        box.startServer();
        List<JsonNode> replies = tcp(3, judge("ls", null), judge("ls", "0".repeat(64)), judge("ls", box.token()));
        assertThat(replies).hasSize(3);
        for (JsonNode r : replies.subList(0, 2)) {
            assertThat(r.path("error").asText()).isEqualTo("unauthorized");
            assertThat(r.has("tier")).isFalse();
        }
        assertThat(replies.get(2).path("tier").asText()).isEqualTo("allow");
        // only an authenticated reply carries the server's proof
        assertThat(replies.get(2).path("proof").asText()).isEqualTo(Files.readString(box.run.resolve("server.proof")).strip());
        assertThat(replies.get(0).has("proof")).isFalse();
    }

    @Test
    void theUnixSocketNeedsNoTokenBecauseOnlyThisUserCanOpenIt() throws Exception {
        box.startServer();
        try (SocketChannel c = SocketChannel.open(StandardProtocolFamily.UNIX)) {
            c.connect(UnixDomainSocketAddress.of(box.run.resolve("server.sock")));
            OutputStream out = Channels.newOutputStream(c);
            out.write((judge("rm -rf ~", null) + "\n").getBytes(StandardCharsets.UTF_8));
            out.flush();
            JsonNode reply = read(new BufferedReader(new InputStreamReader(Channels.newInputStream(c), StandardCharsets.UTF_8)), 1).getFirst();
            assertThat(reply.path("tier").asText()).isEqualTo("deny");
            // the fields a shell-level client reads come first, in a fixed order
            assertThat(reply.toString()).startsWith("{\"v\":1,\"tier\":\"deny\",\"rule\":");
        }
    }

    @Test
    void anotherUserCanNeitherReadTheTokenNorReachTheSocket() throws Exception {
        assumeTrue(new com.sun.security.auth.module.UnixSystem().getUid() == 0,
                "acting as another user (setpriv) needs root; CI runs as root");
        box.startServer();
        Path tokenFile = box.run.resolve("server.token");
        Processes.Result read = Processes.run(List.of("setpriv", "--reuid=65534", "--regid=65534", "--clear-groups",
                "cat", tokenFile.toString()), null, (String) null, dir);
        assertThat(read.code()).isNotZero();
        assertThat(read.out()).isEmpty();
        assertThat(read.err()).contains("Permission denied");
        Processes.Result list = Processes.run(List.of("setpriv", "--reuid=65534", "--regid=65534", "--clear-groups",
                "ls", box.run.toString()), null, (String) null, dir);
        assertThat(list.code()).isNotZero();
        // and over TCP, without the token, it only gets "unauthorized"
        Processes.Result tcp = Processes.run(List.of("setpriv", "--reuid=65534", "--regid=65534", "--clear-groups",
                "bash", "-c", "exec 3<>/dev/tcp/127.0.0.1/" + box.port() + "; printf '%s\\n' \"$1\" >&3; IFS= read -r l <&3; printf %s \"$l\"",
                "x", judge("ls", null)), null, (String) null, dir);
        assertThat(tcp.out()).contains("\"error\":\"unauthorized\"").doesNotContain("tier");
    }

    @Test
    void theRawEnvironmentAndBriefRepliesAreUnderstood() throws Exception {
        box.startServer();
        String request = "{\"v\":1,\"op\":\"judge\",\"brief\":true,\"shell\":\"/bin/bash\",\"cmd\":\"ls\",\"cwd\":\"" + box.work
                + "\",\"environ\":[\"PATH=/usr/bin:/bin\",\"BASH_FUNC_ls%%=() { rm -rf ~; }\",\"PATH=/evil\",\"junk\"],"
                + "\"token\":\"" + box.token() + "\"}";
        JsonNode reply = tcp(1, request).getFirst();
        assertThat(reply.path("tier").asText()).isEqualTo("ask");
        assertThat(reply.path("rule").asText()).isEqualTo("imported-function");
        assertThat(reply.has("reasons")).isFalse();
        JsonNode full = tcp(1, judge("ls", box.token())).getFirst();
        assertThat(full.path("reasons").isArray()).isTrue();
    }

    @Test
    void anArgumentVectorIsJudgedAsExactlyThoseWords() throws Exception {
        box.startServer();
        String t = box.token();
        String head = "{\"v\":1,\"op\":\"judge\",\"cwd\":\"" + box.work + "\",\"env\":{\"PATH\":\"/usr/bin:/bin\"},\"token\":\"" + t + "\",";
        List<JsonNode> replies = tcp(5,
                // one argument that a shell would split into a second command: to echo it is only text
                head + "\"argv\":[\"/usr/bin/echo\",\"a; touch x\"],\"cmd\":\"ignored\"}",
                head + "\"argv\":[\"/usr/bin/rm\",\"-rf\",\"/\"]}",
                head + "\"argv\":[\"/usr/bin/bash\",\"-c\",\"touch x\"]}",
                head + "\"argv\":[]}",
                head + "\"argv\":[\"/usr/bin/echo\",1]}");
        assertThat(replies.get(0).path("tier").asText()).isEqualTo("allow");
        assertThat(replies.get(0).path("commands")).hasSize(1);
        assertThat(replies.get(0).path("commands").get(0).path("argv").get(1).asText()).isEqualTo("a; touch x");
        assertThat(replies.get(1).path("tier").asText()).isEqualTo("deny");
        assertThat(replies.get(2).path("tier").asText()).isEqualTo("ask");
        assertThat(replies.get(2).path("commands").toString()).contains("touch");
        assertThat(replies.subList(3, 5)).extracting(r -> r.path("error").asText()).containsOnly("bad-request");
    }

    @Test
    void anEnvironmentSentWithAnIdIsKeptForThatConnectionOnly() throws Exception {
        box.startServer();
        // a directory on PATH that holds its own ls: with that environment, ls asks
        Path evil = Files.createDirectories(box.root.resolve("evil"));
        Files.writeString(evil.resolve("ls"), "#!/bin/sh\n");
        Files.setPosixFilePermissions(evil.resolve("ls"), PosixFilePermissions.fromString("rwxr-xr-x"));
        String head = "{\"v\":1,\"op\":\"judge\",\"brief\":true,\"cwd\":\"" + box.work + "\",\"token\":\"" + box.token() + "\",";
        String evilEnv = "\"env\":{\"PATH\":\"" + evil + ":/usr/bin:/bin\"}";
        String plainEnv = "\"env\":{\"PATH\":\"/usr/bin:/bin\"}";
        List<JsonNode> replies = tcp(5,
                head + "\"env-id\":\"e1\"," + evilEnv + ",\"argv\":[\"ls\"]}",
                head + "\"env-id\":\"e1\",\"argv\":[\"ls\"]}",
                // an environment sent without an id is used for its own request and kept for none
                head + plainEnv + ",\"argv\":[\"ls\"]}",
                head + "\"env-id\":\"e1\",\"argv\":[\"ls\"]}",
                head + "\"env-id\":\"e2\",\"argv\":[\"ls\"]}");
        assertThat(replies).extracting(r -> r.path("tier").asText()).containsExactly("ask", "ask", "allow", "ask", "");
        assertThat(replies.get(0).path("env-id").asText()).isEqualTo("e1");
        assertThat(replies.get(2).has("env-id")).isFalse();
        assertThat(replies.get(4).path("error").asText()).isEqualTo("unknown-env");
        // another connection does not have it
        JsonNode other = tcp(1, head + "\"env-id\":\"e1\",\"argv\":[\"ls\"]}").getFirst();
        assertThat(other.path("error").asText()).isEqualTo("unknown-env");
        assertThat(other.has("tier")).isFalse();
    }

    /** A ping on a connection of the Unix socket; null when the server closed it. */
    private static JsonNode ping(SocketChannel c) throws IOException {
        c.write(java.nio.ByteBuffer.wrap("{\"v\":1,\"op\":\"ping\"}\n".getBytes(StandardCharsets.UTF_8)));
        java.io.ByteArrayOutputStream line = new java.io.ByteArrayOutputStream();
        java.nio.ByteBuffer b = java.nio.ByteBuffer.allocate(1);
        while (c.read(b.clear()) > 0) {
            if (b.get(0) == '\n') {
                return JSON.readTree(line.toByteArray());
            }
            line.write(b.get(0));
        }
        return null;
    }

    @Test
    void aQuietConnectionIsCutAndABusyOneIsKept() throws Exception {
        // 30 s unless set; 6 s here
        box.env.put("SHELLGATE_SERVER_CONNECTION_IDLE_SECONDS", "6");
        box.startServer();
        try (SocketChannel quiet = SocketChannel.open(StandardProtocolFamily.UNIX);
                SocketChannel busy = SocketChannel.open(StandardProtocolFamily.UNIX)) {
            quiet.connect(UnixDomainSocketAddress.of(box.run.resolve("server.sock")));
            busy.connect(UnixDomainSocketAddress.of(box.run.resolve("server.sock")));
            assertThat(ping(quiet).path("pong").asBoolean()).isTrue();
            long start = System.nanoTime();
            quiet.configureBlocking(false);
            boolean openAt2 = false;
            // the busy one asks every second, for twice as long as the quiet one is given
            for (int i = 0; i <= 11; i++) {
                assertThat(ping(busy)).as("ping %d on the busy connection", i).isNotNull();
                if (i == 2) {
                    openAt2 = quiet.read(java.nio.ByteBuffer.allocate(1)) == 0;
                }
                Thread.sleep(Math.max(0, TimeUnit.SECONDS.toMillis(i + 1) - TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start)));
            }
            assertThat(openAt2).as("the quiet connection is open after 2 s").isTrue();
            assertThat(quiet.read(java.nio.ByteBuffer.allocate(1))).as("the quiet connection after 12 s").isEqualTo(-1);
            assertThat(ping(busy)).isNotNull();
        }
    }

    @Test
    void thePoliciesComeFromTheSettingsEnvironmentWhenOneIsGiven() throws Exception {
        box.startServer();
        Files.createDirectories(box.home.resolve(".config/shellgate"));
        Files.writeString(box.home.resolve(".config/shellgate/policy.toml"), Sandbox.DENY_MAKE_DEPLOY);
        String head = "{\"v\":1,\"op\":\"judge\",\"brief\":true,\"cwd\":\"" + box.work + "\",\"token\":\"" + box.token()
                + "\",\"argv\":[\"/usr/bin/make\",\"deploy\"],";
        String bare = "\"env\":{\"PATH\":\"/usr/bin:/bin\"}";
        String user = "{\"PATH\":\"/usr/bin:/bin\",\"HOME\":\"" + box.home + "\"}";
        List<JsonNode> replies = tcp(5,
                // a command whose environment has no HOME: no user policy is found from it
                head + bare + "}",
                head + bare + ",\"settings-env\":" + user + "}",
                head + "\"env-id\":\"u\",\"env\":" + user + "}",
                head + bare + ",\"settings-env\":\"u\"}",
                head + bare + ",\"settings-env\":\"other\"}");
        assertThat(replies).extracting(r -> r.path("rule").asText() + "/" + r.path("error").asText())
                .containsExactly("not-read-only/", "no-make-deploy/", "no-make-deploy/", "no-make-deploy/", "/unknown-env");
    }

    @Test
    void garbageGetsAnErrorAndTheConnectionKeepsServing() throws Exception {
        box.startServer();
        String t = box.token();
        List<JsonNode> replies = tcp(6, "garbage{", "[1,2]", "{\"v\":1,\"op\":\"judge\",\"token\":\"" + t + "\"}",
                "{\"v\":99,\"op\":\"judge\",\"token\":\"" + t + "\"}", "{\"v\":1,\"op\":\"launch-missiles\",\"token\":\"" + t + "\"}",
                judge("ls", t));
        assertThat(replies).extracting(r -> r.path("error").asText())
                .containsExactly("bad-request", "bad-request", "bad-request", "unsupported-version", "bad-request", "");
        assertThat(replies.getLast().path("tier").asText()).isEqualTo("allow");
    }

    @Test
    void anOversizedRequestIsCutAndTheServerKeepsServing() throws Exception {
        box.startServer();
        String huge = "{\"v\":1,\"op\":\"judge\",\"cmd\":\"" + "x".repeat(2 << 20) + "\"}";
        List<JsonNode> replies;
        try (Socket s = new Socket(InetAddress.getLoopbackAddress(), box.port())) {
            s.setSoTimeout(20_000);
            try {
                s.getOutputStream().write((huge + "\n").getBytes(StandardCharsets.UTF_8));
            } catch (IOException e) {
                // the server may close before all of it is written
            }
            replies = read(new BufferedReader(new InputStreamReader(s.getInputStream(), StandardCharsets.UTF_8)), 2);
        }
        assertThat(replies).hasSize(1);
        assertThat(replies.getFirst().path("error").asText()).isEqualTo("too-large");
        assertThat(tcp(1, judge("ls", box.token())).getFirst().path("tier").asText()).isEqualTo("allow");
    }

    @Test
    void policyFilesAreReloadedWhenTheyChange() throws Exception {
        box.startServer();
        Map<String, String> env = new HashMap<>(box.env);
        env.put("SHELLGATE_JAVA_HOME", dir.resolve("no-jdk").toString());
        Processes.Result before = box.shellgate(env, null, "-c", "make deploy");
        assertThat(before.err()).startsWith("shellgate: refused (not-read-only)");
        Path policy = Files.createDirectories(box.home.resolve(".config/shellgate")).resolve("policy.toml");
        Files.writeString(policy, Sandbox.DENY_MAKE_DEPLOY);
        Processes.Result after = box.shellgate(env, null, "-c", "make deploy");
        assertThat(after.err()).isEqualTo("shellgate: refused (no-make-deploy): deploys need a person\n");
        // a broken policy is an error for every command, never a fallback to the default or to allow
        Files.writeString(policy, "[[rule]\n");
        Processes.Result broken = box.shellgate(env, null, "-c", "ls");
        assertThat(broken.code()).isEqualTo(126);
        assertThat(broken.out()).isEmpty();
        assertThat(broken.err()).startsWith("shellgate: refused (policy-error): the policy cannot be used: " + policy + ":")
                .endsWith("\n");
        assertThat(broken.err().lines()).hasSize(1);
        // the same without the server
        env.put("SHELLGATE_JAVA_HOME", box.env.get("SHELLGATE_JAVA_HOME"));
        env.put("SHELLGATE_NO_SERVER", "1");
        Processes.Result jvm = box.shellgate(env, null, "-c", "ls");
        assertThat(jvm.code()).isEqualTo(126);
        assertThat(jvm.err()).startsWith("shellgate: refused (policy-error): the policy cannot be used: " + policy + ":");
        // and with neither a server nor a JVM, nothing runs either
        env.put("SHELLGATE_JAVA_HOME", dir.resolve("no-jdk").toString());
        Processes.Result none = box.shellgate(env, null, "-c", "echo ran");
        assertThat(none.code()).isEqualTo(126);
        assertThat(none.out()).isEmpty();
        assertThat(none.err()).startsWith("shellgate: refused (judge-error): no judge server answered, and no Java 25");
    }

    @Test
    void itStopsWhenIdleAndRemovesItsFiles() throws Exception {
        box.env.put("SHELLGATE_SERVER_IDLE_SECONDS", "2");
        Process server = box.startServer();
        assertThat(server.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(server.exitValue()).isZero();
        assertThat(box.run.resolve("server.token")).doesNotExist();
        assertThat(box.run.resolve("server.port")).doesNotExist();
        assertThat(box.run.resolve("server.sock")).doesNotExist();
    }

    @Test
    void sigtermRemovesItsFiles() throws Exception {
        Process server = box.startServer();
        server.destroy();
        assertThat(server.waitFor(60, TimeUnit.SECONDS)).isTrue();
        for (String f : List.of("server.token", "server.proof", "server.port", "server.pid", "server.sock")) {
            assertThat(box.run.resolve(f)).as(f).doesNotExist();
        }
    }

    @Test
    void aRunDirectoryOthersMayWriteIsNotBelieved() throws Exception {
        box.startServer();
        Map<String, String> noJvm = new HashMap<>(box.env);
        noJvm.put("SHELLGATE_JAVA_HOME", box.root.resolve("no-jdk-here").toString());
        for (String open : List.of("rwxrwxrwx", "rwxrwx---")) {
            Files.setPosixFilePermissions(box.run, PosixFilePermissions.fromString(open));
            // another user could have swapped its port, token or proof: without a JVM of its own the
            // client cannot judge, so it refuses
            Processes.Result r = box.shellgate(noJvm, null, "-c", "echo hi");
            assertThat(r.code()).as(open).isEqualTo(126);
            assertThat(r.err()).as(open).startsWith("shellgate: not using the judge server in " + box.run + ": " + box.run
                    + " can be written by other users or is a link (chmod go-w); judging in a JVM of its own\n");
        }
        Files.setPosixFilePermissions(box.run, PosixFilePermissions.fromString("rwx------"));
        assertThat(box.shellgate(noJvm, null, "-c", "echo trusted").out()).isEqualTo("trusted\n");
        // the values found private are remembered; once the directory is open, what another user
        // could do there (rename this user's files over each other) changes them, and the files are
        // checked again
        Files.setPosixFilePermissions(box.run, PosixFilePermissions.fromString("rwxrwxrwx"));
        Path token = box.run.resolve("server.token");
        Path proof = box.run.resolve("server.proof");
        Files.move(token, box.run.resolve("swap"));
        Files.move(proof, token);
        Files.move(box.run.resolve("swap"), proof);
        assertThat(box.shellgate(noJvm, null, "-c", "echo hi").err()).contains("can be written by other users");
        Files.move(proof, box.run.resolve("swap"));
        Files.move(token, proof);
        Files.move(box.run.resolve("swap"), token);
        Files.setPosixFilePermissions(box.run, PosixFilePermissions.fromString("rwx------"));
        // a file others may write, written to
        String real = Files.readString(token);
        Files.setPosixFilePermissions(token, PosixFilePermissions.fromString("rw--w----"));
        Files.writeString(token, "0".repeat(64) + "\n");
        assertThat(box.shellgate(noJvm, null, "-c", "echo hi").err()).contains("server.token can be written by other users");
        Files.writeString(token, real);
        Files.setPosixFilePermissions(token, PosixFilePermissions.fromString("rw-------"));
        assertThat(box.shellgate(noJvm, null, "-c", "echo trusted again").out()).isEqualTo("trusted again\n");
    }

    @Test
    void theRunDirectoryIsCheckedWithAForkOnlyOncePerServer() throws Exception {
        // bash has no test for modes: the script's own relay (where the native client is not built, or hands
        // back with __relayed) forks a find, which costs more than the rest of a relayed call; the first client
        // after a server starts does, the values it found private are remembered (in a file the server made
        // private) and later clients compare them instead
        Path tools = Files.createDirectories(box.root.resolve("counting"));
        Path calls = box.root.resolve("find-calls");
        Path find = tools.resolve("find");
        Files.writeString(find, "#!/bin/sh\necho x >> '" + calls + "'\nexec /usr/bin/find \"$@\"\n");
        Files.setPosixFilePermissions(find, PosixFilePermissions.fromString("rwx------"));
        Map<String, String> env = new HashMap<>(box.env);
        env.put("PATH", tools + ":" + box.env.get("PATH"));
        box.startServer();
        assertThat(Files.readString(box.run.resolve("server.trusted"))).isEmpty();
        assertThat(Files.getPosixFilePermissions(box.run.resolve("server.trusted"))).isEqualTo(PosixFilePermissions.fromString("rw-------"));
        for (int i = 0; i < 3; i++) {
            assertThat(box.shellgate(env, null, "__relayed", "-c", "echo " + i).out()).isEqualTo(i + "\n");
        }
        assertThat(Files.readAllLines(calls)).hasSize(1);
        assertThat(Files.readString(box.run.resolve("server.trusted")).strip()).isEqualTo(
                Files.readString(box.run.resolve("server.port")).strip() + " " + Files.readString(box.run.resolve("server.token")).strip()
                        + " " + Files.readString(box.run.resolve("server.proof")).strip());
    }

    @Test
    void aTcpConnectionThatNeverProvesItselfIsDroppedWithoutAReply() throws Exception {
        box.startServer();
        try (Socket s = new Socket(InetAddress.getLoopbackAddress(), box.port())) {
            s.setSoTimeout(30_000);
            // a slot held by a connection that sends nothing is given back within a second; before, it
            // was held for 10 s and then answered with a timeout error
            assertThat(s.getInputStream().read()).isEqualTo(-1);
        }
        assertThat(tcp(1, judge("ls", box.token())).getFirst().path("tier").asText()).isEqualTo("allow");
    }

    @Test
    void aClientThatGoesAwayReleasesItsAsk() throws Exception {
        box.startServer();
        ObjectNode r = JSON.createObjectNode();
        r.put("v", 1).put("op", "judge").put("cmd", "touch left").put("cwd", box.work.toString()).put("dialect", "bash")
                .put("review", true);
        r.putObject("env").put("PATH", "/usr/bin:/bin").put("HOME", box.home.toString())
                .put("SHELLGATE_REVIEW_TIMEOUT_SECONDS", "600");
        r.putObject("origin").put("entry", "shell-c").put("pid", 4242);
        try (ApprovalsWatch watch = ApprovalsWatch.start(box)) {
            try (SocketChannel c = SocketChannel.open(StandardProtocolFamily.UNIX)) {
                c.connect(UnixDomainSocketAddress.of(box.run.resolve("server.sock")));
                Channels.newOutputStream(c).write((r + "\n").getBytes(StandardCharsets.UTF_8));
                assertThat(watch.awaitQuestion()).contains("touch left").contains("pid 4242");
            }
            assertThat(watch.terminal().await("no longer waiting")).isNotEmpty();
        }
        assertThat(box.shellgate("log", "--json").out()).contains("\"cmd\":\"touch left\"")
                .contains("the client that asked stopped waiting");
    }

    @Test
    void aSecondServerForTheSameUserStepsAside() throws Exception {
        Process first = box.startServer();
        Processes.Result second = box.shellgate("serve");
        assertThat(second.code()).isZero();
        assertThat(second.err()).contains("already running");
        assertThat(first.isAlive()).isTrue();
        assertThat(tcp(1, judge("ls", box.token())).getFirst().path("tier").asText()).isEqualTo("allow");
    }

    /** Keeps clients from starting a server of their own for the next ten seconds. */
    private void noOnDemandStart() throws IOException {
        Files.createDirectories(box.run);
        Files.writeString(box.run.resolve("starting"), (System.currentTimeMillis() / 1000 + 3600) + "\n");
    }

    @Test
    void killingTheServerMidRequestMakesTheClientJudgeForItself() throws Exception {
        Process server = box.startServer();
        noOnDemandStart();
        Path marker = Files.writeString(box.work.resolve("marker"), "x");
        // frozen, the server accepts connections (the kernel does) but answers nothing
        assertThat(new ProcessBuilder("kill", "-STOP", Long.toString(server.pid())).start().waitFor()).isZero();
        Process allowed = Processes.start(List.of(Processes.launcher().toString(), "-c", "echo ran"), box.env, box.work);
        Process refused = Processes.start(List.of(Processes.launcher().toString(), "-c", "rm -f marker"), box.env, box.work);
        Thread.sleep(1500);
        server.destroyForcibly();
        assertThat(server.waitFor(30, TimeUnit.SECONDS)).isTrue();
        assertThat(allowed.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(refused.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(new String(allowed.getInputStream().readAllBytes(), StandardCharsets.UTF_8)).isEqualTo("ran\n");
        assertThat(allowed.exitValue()).isZero();
        assertThat(refused.exitValue()).isEqualTo(126);
        assertThat(new String(refused.getErrorStream().readAllBytes(), StandardCharsets.UTF_8)).startsWith("shellgate: refused (not-read-only)");
        assertThat(marker).exists();

        // with the server gone for good (its files left behind), clients still judge every command
        assertThat(box.shellgate("-c", "rm -f marker").code()).isEqualTo(126);
        assertThat(box.shellgate("-c", "echo again").out()).isEqualTo("again\n");
        assertThat(marker).exists();
    }

    @Test
    void aServerThatAnswersNonsenseIsNotBelieved() throws Exception {
        noOnDemandStart();
        Files.setPosixFilePermissions(box.run, PosixFilePermissions.fromString("rwx------"));
        try (ServerSocket stub = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            Files.writeString(box.run.resolve("server.port"), stub.getLocalPort() + "\n");
            Files.writeString(box.run.resolve("server.token"), "f".repeat(64) + "\n");
            Files.writeString(box.run.resolve("server.proof"), "a".repeat(64) + "\n");
            String wellFormedAllow = "{\"v\":1,\"tier\":\"allow\",\"rule\":\"ls\",\"message\":\"fine\",\"shell\":\"/bin/bash\","
                    + "\"dialect\":\"bash\"";
            // whatever listens on the port does not know the proof: even a perfect allow is not believed
            List<String> answers = List.of(wellFormedAllow + "}", wellFormedAllow + ",\"proof\":\"" + "b".repeat(64) + "\"}",
                    "{\"v\":1,\"tier\":\"allow\"}", "allow", "", "{\"v\":1,\"error\":\"internal\",\"message\":\"x\"}");
            Thread stubThread = Thread.ofPlatform().daemon().start(() -> {
                for (int i = 0; ; i++) {
                    try (Socket c = stub.accept()) {
                        new BufferedReader(new InputStreamReader(c.getInputStream(), StandardCharsets.UTF_8)).readLine();
                        String answer = answers.get(i % answers.size());
                        if (!answer.isEmpty()) {
                            c.getOutputStream().write((answer + "\n").getBytes(StandardCharsets.UTF_8));
                        }
                    } catch (IOException e) {
                        return;
                    }
                }
            });
            Path precious = Files.writeString(box.home.resolve("precious"), "x");
            for (int i = 0; i < answers.size(); i++) {
                Processes.Result deny = box.shellgate("-c", "rm -rf ~");
                assertThat(deny.code()).as(deny.toString()).isEqualTo(126);
                assertThat(deny.err()).startsWith("shellgate: refused (").doesNotContain("judge-error");
                assertThat(precious).exists();
            }
            assertThat(box.shellgate("-c", "echo fine").out()).isEqualTo("fine\n");
            stub.close();
            stubThread.join(10_000);
        }
    }

    /** A javaagent's request for {@code argv} (or {@code cmd} when argv is null) that asks for reusable allows. */
    private String agentJudge(String cmd, String... argv) throws IOException {
        return agentRequest("judge", null, null, cmd, argv);
    }

    /** A {@code ran} notice of starts at {@code times} (a JSON array) on the allow with {@code token}. */
    private String agentRan(String times, String token, String cmd, String... argv) throws IOException {
        return agentRequest("ran", times, token, cmd, argv);
    }

    private String agentRequest(String op, String times, String token, String cmd, String[] argv) throws IOException {
        ObjectNode r = JSON.createObjectNode();
        r.put("v", 1);
        r.put("op", op);
        if (times != null) {
            r.set("times", JSON.readTree(times));
            r.put("token", token);
        }
        r.put("review", true).put("brief", true).put("recheck", true).put("dialect", "bash").put("cwd", box.work.toString());
        r.put("cmd", cmd);
        if (argv.length > 0) {
            r.putArray("argv").addAll(java.util.Arrays.stream(argv).map(a -> JSON.getNodeFactory().textNode(a)).toList());
        }
        r.putObject("env").put("PATH", "/usr/bin:/bin").put("HOME", box.home.toString());
        r.putObject("origin").put("entry", "javaagent").put("pid", 42).put("detail", "Tool").put("session", "s");
        r.put("token", box.token());
        return r.toString();
    }

    @Test
    void anAllowComesWithTheFileFactsItRestsOnAndARanNoticeIsLoggedWithoutAReply() throws Exception {
        box.startServer();
        List<JsonNode> replies = tcp(4,
                agentJudge("ignored", "/usr/bin/echo", "hi"),
                agentJudge("ignored", "/usr/bin/touch", "x"),
                agentJudge("ls *.txt"),
                agentJudge("ignored", "/usr/bin/echo", "hi"));
        JsonNode allow = replies.getFirst();
        assertThat(allow.path("tier").asText()).isEqualTo("allow");
        List<String> facts = new java.util.ArrayList<>();
        allow.path("recheck").path("facts").forEach(f -> facts.add(f.get(0).asText() + " " + f.get(1).asText() + " " + f.get(2).asText()));
        // this server (a later one has another server.pid), the policy files, the program and its directories
        assertThat(facts.getFirst()).matches("identity " + java.util.regex.Pattern.quote(box.run.resolve("server.pid").toString())
                + " \\d+:\\d+:\\d+:\\d+");
        assertThat(facts).contains("regular " + box.home.resolve(".config/shellgate/policy.toml") + " false",
                "exists " + box.work.resolve(".git") + " false", "lexists /usr/bin/echo true", "dir-uid /usr/bin 0",
                "perms " + Path.of("/usr/bin/echo").toRealPath() + " "
                        + PosixFilePermissions.toString(Files.getPosixFilePermissions(Path.of("/usr/bin/echo"))));
        // an ask, and an allow that rests on what a glob matched, offer nothing to reuse
        assertThat(replies.get(1).path("tier").asText()).isEqualTo("ask");
        assertThat(replies.get(1).has("recheck")).isFalse();
        assertThat(replies.get(2).path("tier").asText()).isEqualTo("allow");
        assertThat(replies.get(2).has("recheck")).isFalse();
        // the same facts, and a token for each allow offered
        assertThat(replies.get(3).path("recheck").path("facts")).isEqualTo(allow.path("recheck").path("facts"));
        String token = allow.path("recheck").path("token").asText();
        assertThat(token).isNotEmpty().isNotEqualTo(replies.get(3).path("recheck").path("token").asText());

        // two starts on the reused allow: logged with their own times, and the next reply is the ping's
        long t1 = 1_700_000_000_000L;
        List<JsonNode> after = tcp(1, agentRan("[" + t1 + "," + (t1 + 1500) + "]", token, "ignored", "/usr/bin/echo", "hi"),
                // a token this server never gave, on a request that now asks: judged now, and logged as already started
                agentRan("[" + (t1 + 3000) + "]", "no-such-token", "ignored", "/usr/bin/touch", "x"),
                "{\"v\":1,\"op\":\"ping\",\"token\":\"" + box.token() + "\"}");
        assertThat(after.getFirst().path("pong").asBoolean()).isTrue();
        List<JsonNode> log = new java.util.ArrayList<>();
        for (String line : box.shellgate("log", "--json").out().lines().toList()) {
            log.add(JSON.readTree(line));
        }
        List<JsonNode> ran = log.stream().filter(r -> r.path("message").asText().contains("reused")).toList();
        assertThat(ran).extracting(r -> r.path("time").asText())
                .containsExactly("2023-11-14T22:13:20.000Z", "2023-11-14T22:13:21.500Z", "2023-11-14T22:13:23.000Z");
        assertThat(ran.subList(0, 2)).allSatisfy(r -> {
            assertThat(r.path("run").asBoolean()).isTrue();
            assertThat(r.path("entry").asText()).isEqualTo("javaagent");
            assertThat(r.path("cmd").asText()).isEqualTo("/usr/bin/echo hi");
            assertThat(r.path("message").asText()).isEqualTo("read-only (started on an allow javaagent reused, after asking its"
                    + " file questions again)");
        });
        assertThat(ran.get(2).path("run").asBoolean()).isFalse();
        assertThat(ran.get(2).path("tier").asText()).isEqualTo("ask");
        assertThat(ran.get(2).path("message").asText()).startsWith("already started on an allow javaagent reused, after asking its"
                + " file questions again; judged again now, it is ask: ");
        // a notice is never answered, not even when it is malformed
        assertThat(tcp(1, agentRan("[\"soon\"]", token, "ignored", "/usr/bin/echo", "hi"),
                "{\"v\":1,\"op\":\"ping\",\"token\":\"" + box.token() + "\"}").getFirst().path("pong").asBoolean()).isTrue();
    }

    @Test
    void aPolicyFileChangedTooRecentlyToTellALaterChangeOffersNoReuse() throws Exception {
        box.startServer();
        Files.createDirectories(box.home.resolve(".config/shellgate"));
        Path policy = box.home.resolve(".config/shellgate/policy.toml");
        Files.writeString(policy, "[settings]\ntime-budget-ms = 20000\n");
        // a modification time ahead of the clock counts as recent however long the request takes to arrive (a busy
        // machine): a change now could keep its time stamps
        Files.setLastModifiedTime(policy, java.nio.file.attribute.FileTime.from(java.time.Instant.now().plusSeconds(3600)));
        JsonNode fresh = tcp(1, agentJudge("ignored", "/usr/bin/echo", "hi")).getFirst();
        assertThat(fresh.path("tier").asText()).isEqualTo("allow");
        assertThat(fresh.has("recheck")).isFalse();
        // an hour old, and its status change (which setting the time is) more than two seconds ago
        Files.setLastModifiedTime(policy, java.nio.file.attribute.FileTime.from(java.time.Instant.now().minusSeconds(3600)));
        Thread.sleep(2100);
        JsonNode settled = tcp(1, agentJudge("ignored", "/usr/bin/echo", "hi")).getFirst();
        List<String> facts = new java.util.ArrayList<>();
        settled.path("recheck").path("facts").forEach(f -> facts.add(f.get(0).asText() + " " + f.get(1).asText()));
        assertThat(facts).contains("identity " + box.home.resolve(".config/shellgate/policy.toml"));
    }
}
