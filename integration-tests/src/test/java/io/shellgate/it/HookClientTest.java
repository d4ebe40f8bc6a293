package io.shellgate.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.shellgate.rules.Places;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * shellgate-hook, the hook relay without bash: it answers exactly as the launcher script's
 * {@code shellgate hook AGENT} does, through the warm server, and wherever it cannot believe a
 * server it hands the call, input untouched, to the launcher script beside it.
 */
class HookClientTest extends SandboxTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    private String input(String agent, String command) {
        return HookAdaptersTest.input(agent, command, box.work);
    }

    private Processes.Result client(Map<String, String> env, String stdin, String... args) throws Exception {
        return client(Processes.hookClient(), env, Sandbox.bytes(stdin), args);
    }

    private Processes.Result client(Path program, Map<String, String> env, byte[] stdin, String... args) throws Exception {
        List<String> command = new ArrayList<>(List.of(program.toString()));
        command.addAll(List.of(args));
        return Processes.run(command, env, stdin, box.work);
    }

    /** The decision in a Claude Code answer; "" for none. */
    private static String decision(Processes.Result r) throws Exception {
        return r.out().isEmpty() ? "" : JSON.readTree(r.out()).path("hookSpecificOutput").path("permissionDecision").asText();
    }

    @Test
    void answersByteForByteAsTheLauncherScriptDoesThroughTheServer() throws Exception {
        // the client has no JVM to fall back on: every answer comes from the server (one server
        // for all: each start costs seconds of the suite)
        Map<String, String> env = box.client(Sandbox.Mode.SERVER);
        for (String agent : List.of("claude-code", "gemini-cli", "codex", "qwen-code", "claude")) {
            String hookName = agent.equals("claude") ? "claude-code" : agent;
            for (String command : List.of("ls -la", "touch made-by-hook", "rm -rf ~", "git status",
                    "touch \"caf\u00e9 \\ x\"\tb \u2603 \ud83d\ude00", "echo '\u0001'")) {
                String in = input(hookName, command);
                Processes.Result script = box.shellgate(env, Sandbox.bytes(in), "hook", agent);
                Processes.Result client = client(env, in, agent);
                String what = agent + ", " + command;
                assertThat(client.code()).as(what + ": " + client).isEqualTo(script.code()).isZero();
                assertThat(client.out()).as(what).isEqualTo(script.out());
                if (!agent.equals("codex") || command.startsWith("rm")) {
                    // Codex is answered only when refused
                    assertThat(client.out()).as(what).isNotEmpty();
                }
                assertThat(client.outBytes()).as(what).isEqualTo(script.outBytes());
                assertThat(client.errBytes()).as(what).isEqualTo(script.errBytes());
            }
        }
        assertThat(box.work.resolve("made-by-hook")).doesNotExist();
    }

    @Test
    void theServerIsToldWhatTheScriptWouldTellItAboutTheCall() throws Exception {
        // the audit lines of the same call through each relay agree on the caller, the hook's
        // directory (a path with a space; $PWD only where it names the directory, as bash takes it)
        // and the decision
        Map<String, String> env = box.client(Sandbox.Mode.SERVER);
        Path sub = Files.createDirectories(box.work.resolve("sub dir"));
        // an input without its own cwd: the hook's directory is the call's
        byte[] in = Sandbox.bytes(input("claude-code", "rm -rf ~").replace("\"cwd\":\"" + box.work + "\",", ""));
        assertThat(new String(in, StandardCharsets.UTF_8)).doesNotContain("cwd");
        for (String pwd : List.of("right", "stale", "unset")) {
            switch (pwd) {
                case "right" -> env.put("PWD", sub.toString());
                case "stale" -> env.put("PWD", box.root.toString());
                default -> env.remove("PWD");
            }
            Processes.Result script = Processes.run(List.of(Processes.launcher().toString(), "hook", "claude-code"), env, in, sub);
            Processes.Result client = Processes.run(List.of(Processes.hookClient().toString(), "claude-code"), env, in, sub);
            assertThat(decision(client)).as(pwd + ": " + client).isEqualTo("deny");
            assertThat(client.out()).as(pwd).isEqualTo(script.out());
            List<String> lines = Files.readAllLines(box.home.resolve(".local/state/shellgate/audit.jsonl"));
            assertThat(lines).hasSizeGreaterThanOrEqualTo(2);
            JsonNode byScript = JSON.readTree(lines.get(lines.size() - 2));
            JsonNode byClient = JSON.readTree(lines.get(lines.size() - 1));
            assertThat(byClient.path("cwd").asText()).as(pwd).isEqualTo(sub.toString());
            assertThat(byClient.path("cmd").asText()).isEqualTo("rm -rf ~");
            assertThat(byClient.path("pid").asLong()).isEqualTo(ProcessHandle.current().pid());
            for (String field : List.of("entry", "pid", "detail", "session", "cwd", "dialect", "cmd", "tier", "run", "step", "message")) {
                assertThat(byClient.path(field)).as(pwd + ": " + field).isEqualTo(byScript.path(field));
            }
        }
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"XDG_RUNTIME_DIR", "XDG_STATE_HOME", "HOME"})
    void findsTheServerInTheRunDirectoryTheJavaPartsChoose(String decidedBy) throws Exception {
        Map<String, String> env = new HashMap<>(box.env);
        env.remove("SHELLGATE_RUN_DIR");
        env.put("HOME", Files.createDirectories(box.root.resolve("home of " + decidedBy)).toString());
        if (!decidedBy.equals("HOME")) {
            env.put(decidedBy, Files.createDirectories(box.root.resolve(decidedBy.toLowerCase())).toString());
        }
        Path run = Places.run(env);
        Process server = Processes.start(List.of(Processes.launcher().toString(), "serve"), env, box.work);
        try {
            long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
            while (!Files.isRegularFile(run.resolve("server.port")) || !Files.isRegularFile(run.resolve("server.proof"))) {
                assertThat(server.isAlive()).as("the server runs").isTrue();
                assertThat(System.nanoTime()).as("the server published its files in " + run).isLessThan(deadline);
                Thread.sleep(50);
            }
            // no JVM to fall back on: the answer can only come from that server
            env.put("SHELLGATE_JAVA_HOME", box.root.resolve("no-jdk-here").toString());
            Processes.Result r = client(env, input("claude-code", "rm -rf ~"), "claude-code");
            assertThat(decision(r)).as(r.toString()).isEqualTo("deny");
        } finally {
            server.destroy();
            server.waitFor(30, TimeUnit.SECONDS);
        }
    }

    @Test
    void withoutAServerTheLauncherScriptAnswersAndStartsOneForTheNextCall() throws Exception {
        Map<String, String> noServer = new HashMap<>(box.env);
        noServer.put("SHELLGATE_NO_SERVER", "1");
        Processes.Result jvm = client(noServer, input("claude-code", "rm -rf ~"), "claude-code");
        assertThat(decision(jvm)).as(jvm.toString()).isEqualTo("deny");
        assertThat(box.server()).isEmpty();

        // nothing in the run directory: the script judges in a JVM and starts a server
        Processes.Result first = client(box.env, input("claude-code", "ls -la"), "claude-code");
        assertThat(decision(first)).as(first.toString()).isEqualTo("allow");
        box.awaitOnDemandServer();
        Map<String, String> serverOnly = new HashMap<>(box.env);
        serverOnly.put("SHELLGATE_JAVA_HOME", box.root.resolve("no-jdk-here").toString());
        Processes.Result next = client(serverOnly, input("claude-code", "rm -rf ~"), "claude-code");
        assertThat(decision(next)).as(next.toString()).isEqualTo("deny");
    }

    @Test
    void serverFilesOthersCanWriteAreNotBelieved() throws Exception {
        box.startServer();
        Files.setPosixFilePermissions(box.run, PosixFilePermissions.fromString("rwxrwx---"));
        try {
            Processes.Result r = client(box.env, input("claude-code", "rm -rf ~"), "claude-code");
            assertThat(decision(r)).as(r.toString()).isEqualTo("deny");
            assertThat(r.err()).contains("can be written by other users").contains("judging in a JVM of its own");
        } finally {
            Files.setPosixFilePermissions(box.run, PosixFilePermissions.fromString("rwx------"));
        }
    }

    /** What a listener on the server's port that is not the server (it knows no proof) answers. */
    private enum Impostor { ALLOW_WITHOUT_PROOF, CLOSE, HALF_A_LINE }

    @ParameterizedTest(name = "{0}")
    @EnumSource(Impostor.class)
    void aListenerThatIsNotTheServerIsNotBelievedAndTheInputStillReachesTheJudge(Impostor impostor) throws Exception {
        Files.createDirectories(box.run);
        Files.setPosixFilePermissions(box.run, PosixFilePermissions.fromString("rwx------"));
        try (ServerSocket listener = new ServerSocket(0, 5, InetAddress.getLoopbackAddress())) {
            writePrivate(box.run.resolve("server.port"), listener.getLocalPort() + "\n");
            writePrivate(box.run.resolve("server.token"), "a".repeat(64) + "\n");
            writePrivate(box.run.resolve("server.proof"), "b".repeat(64) + "\n");
            CompletableFuture<String> request = CompletableFuture.supplyAsync(() -> {
                try (Socket s = listener.accept()) {
                    String line = new BufferedReader(new InputStreamReader(s.getInputStream(), StandardCharsets.UTF_8)).readLine();
                    OutputStream out = s.getOutputStream();
                    String allow = "{\"v\":1,\"exit\":0,\"stdout\":\"{\\\"hookSpecificOutput\\\":{\\\"hookEventName\\\":\\\"PreToolUse\\\","
                            + "\\\"permissionDecision\\\":\\\"allow\\\"}}\",\"stderr\":\"\"";
                    switch (impostor) {
                        case ALLOW_WITHOUT_PROOF -> out.write((allow + ",\"proof\":\"" + "c".repeat(64) + "\"}\n").getBytes(StandardCharsets.UTF_8));
                        case HALF_A_LINE -> out.write(allow.getBytes(StandardCharsets.UTF_8));
                        case CLOSE -> { }
                    }
                    out.flush();
                    return line;
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            }, Processes::thread);
            Processes.Result r = client(box.env, input("claude-code", "rm -rf ~"), "claude-code");
            // the launcher script judged the same input in a JVM of its own
            assertThat(decision(r)).as(r.toString()).isEqualTo("deny");
            assertThat(r.out()).contains("rm-recursive-critical");
            JsonNode sent = JSON.readTree(request.get(60, TimeUnit.SECONDS));
            assertThat(sent.path("op").asText()).isEqualTo("hook");
            assertThat(sent.path("agent").asText()).isEqualTo("claude-code");
            assertThat(sent.path("token").asText()).isEqualTo("a".repeat(64));
            assertThat(JSON.readTree(sent.path("input").asText()).path("tool_input").path("command").asText()).isEqualTo("rm -rf ~");
            assertThat(sent.path("environ").isArray()).isTrue();
            assertThat(sent.path("environ").toString()).contains("SHELLGATE_RUN_DIR=" + box.run);
        }
        // a server was not started for the next call by a script told to judge on its own
        assertThat(box.server()).isEmpty();
    }

    private static void writePrivate(Path file, String text) throws Exception {
        Files.writeString(file, text);
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
    }

    @Test
    void aLongInputIsSentWholeAndOneOverTheLimitIsRefused() throws Exception {
        Map<String, String> env = box.client(Sandbox.Mode.SERVER);
        String padding = "# " + "x".repeat(60_000);
        Processes.Result rm = client(env, input("claude-code", "ls " + padding + "\nrm -rf ~"), "claude-code");
        assertThat(decision(rm)).as(rm.toString()).isEqualTo("deny");
        Processes.Result ls = client(env, input("claude-code", "ls " + padding), "claude-code");
        assertThat(decision(ls)).as(ls.toString()).isEqualTo("allow");

        Processes.Result tooLong = client(env, input("claude-code", "ls # " + "x".repeat(1 << 20)), "claude-code");
        assertThat(tooLong.code()).as(tooLong.toString()).isEqualTo(2);
        assertThat(tooLong.out()).isEmpty();
        assertThat(tooLong.err()).contains("larger than 1 MiB");

        // a NUL byte travels as \u0000, and input that is not JSON any more is refused
        byte[] nul = Sandbox.bytes(input("claude-code", "ls X").replace("X", "\u0000"));
        Processes.Result withNul = client(Processes.hookClient(), env, nul, "claude-code");
        assertThat(decision(withNul)).as(withNul.toString()).isEqualTo("deny");
    }

    @Test
    void wrongArgumentsExit2WithTheReasonAndHelpSaysWhatItIs() throws Exception {
        for (List<String> args : List.of(List.<String>of(), List.of("cursor"), List.of("claude-code", "extra"))) {
            Processes.Result r = client(Processes.hookClient(), box.env, Sandbox.bytes(input("claude-code", "ls")),
                    args.toArray(String[]::new));
            assertThat(r.code()).as(args + ": " + r).isEqualTo(2);
            assertThat(r.out()).isEmpty();
            assertThat(r.err()).contains("shellgate-hook needs one argument, the agent (or --serve and the agent): claude-code,"
                    + " gemini-cli, codex, qwen-code, copilot-cli, opencode, kilo or pi");
        }
        Processes.Result help = client(Processes.hookClient(), box.env, null, "--help");
        assertThat(help.code()).isZero();
        assertThat(help.out()).contains("Usage: shellgate-hook AGENT").contains("shellgate hook --help");
    }

    @Test
    void withoutTheLauncherScriptBesideItTheCallIsBlocked() throws Exception {
        Path alone = Files.createDirectories(dir.resolve("alone"));
        Path copy = Files.copy(Processes.hookClient(), alone.resolve("shellgate-hook"), StandardCopyOption.COPY_ATTRIBUTES);
        Processes.Result r = client(copy, box.env, Sandbox.bytes(input("claude-code", "ls")), "claude-code");
        assertThat(r.code()).as(r.toString()).isEqualTo(2);
        assertThat(r.err()).contains("cannot run " + alone.resolve("shellgate"));
    }

    @Test
    void aServerOlderThanTheJarBesideItIsAskedToStopAndTheScriptAnswers() throws Exception {
        Process server = box.startServer();
        // a newer build beside the client: its jar is younger than the server's files
        Path newer = Files.createDirectories(dir.resolve("newer"));
        Path launcherDir = Processes.launcher().getParent();
        for (String name : List.of("shellgate", "shellgate.jar", "shellgate-hook")) {
            Files.copy(launcherDir.resolve(name), newer.resolve(name));
        }
        Files.setPosixFilePermissions(newer.resolve("shellgate"), PosixFilePermissions.fromString("rwxr-xr-x"));
        Files.setPosixFilePermissions(newer.resolve("shellgate-hook"), PosixFilePermissions.fromString("rwxr-xr-x"));
        Files.setLastModifiedTime(newer.resolve("shellgate.jar"),
                FileTime.fromMillis(System.currentTimeMillis() + Duration.ofMinutes(1).toMillis()));
        Processes.Result r = client(newer.resolve("shellgate-hook"), box.env, Sandbox.bytes(input("claude-code", "rm -rf ~")), "claude-code");
        assertThat(decision(r)).as(r.toString()).isEqualTo("deny");
        assertThat(server.waitFor(60, TimeUnit.SECONDS)).as("the old server stopped").isTrue();
    }
}
