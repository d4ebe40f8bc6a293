package io.shellgate.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.shellgate.it.Sandbox.Mode;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * {@code shellgate -c} as a drop-in shell, run as a process with the real bash and zsh: what an
 * allowed command sees and gives back is exactly what the real shell would, and a refused command
 * never starts. Every behaviour is checked both through a running judge server (with no usable
 * JVM given to the client, which proves the answer came from the server) and with the server
 * switched off (each command judged in a JVM of its own).
 */
class DropInShellTest extends SandboxTest {

    /**
     * How a command reaches a judge: through a running server by the native client (the launcher
     * script hands -c over to it) or by the script's own relay (as it is when the native client hands
     * back, with __relayed), or with the server switched off (a JVM of its own per command).
     */
    enum Route { NATIVE, SCRIPT, NO_SERVER }

    private Route route = Route.NATIVE;

    private Map<String, String> env(Route route) throws Exception {
        this.route = route;
        if (route == Route.NATIVE) {
            Processes.hookClient();
        }
        return box.client(route == Route.NO_SERVER ? Mode.NO_SERVER : Mode.SERVER);
    }

    /** The launcher's arguments for this test's route. */
    private String[] args(String... args) {
        List<String> all = new ArrayList<>();
        if (route == Route.SCRIPT) {
            all.add("__relayed");
        }
        all.addAll(List.of(args));
        return all.toArray(String[]::new);
    }

    private Processes.Result sh(Map<String, String> env, String... args) throws Exception {
        return box.shellgate(env, null, args(args));
    }

    @ParameterizedTest
    @EnumSource(Route.class)
    void anAgentsStartUpProbeGoesThroughTheGateAndIsLogged(Route route) throws Exception {
        // the server, or the JVM of the client's own, recognises the agent's envelope, and the gate
        // decides and logs it as any other
        Map<String, String> env = env(route);
        // a secret in the environment: env prints it, so from anyone but the probe's agent it asks
        env.put("AWS_SECRET_ACCESS_KEY", "canary");
        Processes.Result probe = sh(env, "--agent", "claude-code", "-c", "env");
        assertThat(probe.code()).as(probe.toString()).isZero();
        assertThat(probe.out()).contains("PATH=");
        // env is a probe of Claude Code's only: from anyone else it is a command like any other
        Processes.Result plain = sh(env, "--agent", "gemini-cli", "-c", "env");
        assertThat(plain.code()).as(plain.toString()).isEqualTo(126);
        List<String> log = box.shellgate("log", "--json").out().lines().filter(l -> l.contains("\"cmd\":\"env\"")).toList();
        assertThat(log).hasSize(2);
        assertThat(log.get(0)).contains("agent-probe").contains("\"run\":true");
        assertThat(log.get(1)).contains("prints-environment").contains("\"run\":false");
    }

    @ParameterizedTest
    @EnumSource(Route.class)
    void theCommandsExitCodePassesThrough(Route route) throws Exception {
        Map<String, String> env = env(route);
        assertThat(sh(env, "-c", "exit 7").code()).isEqualTo(7);
        assertThat(sh(env, "-c", "true").code()).isEqualTo(0);
        assertThat(sh(env, "-c", "false").code()).isEqualTo(1);
        Processes.Result r = sh(env, "-c", "ls no-such-file");
        assertThat(r.code()).as(r.toString()).isEqualTo(2);
        assertThat(r.err()).startsWith("ls: ");
    }

    @ParameterizedTest
    @EnumSource(Route.class)
    void positionalParametersReachTheCommand(Route route) throws Exception {
        Processes.Result r = sh(env(route), "-c", "printf '[%s]' \"$0\" \"$#\" \"$@\"", "name", "a b", "", "*", "-n");
        assertThat(r.code()).as(r.toString()).isEqualTo(0);
        assertThat(r.out()).isEqualTo("[name][4][a b][][*][-n]");
        assertThat(r.err()).isEmpty();
    }

    @ParameterizedTest
    @EnumSource(Route.class)
    void standardInputOutputAndErrorAreByteExact(Route route) throws Exception {
        byte[] input = new byte[256 * 300];
        for (int i = 0; i < input.length; i++) {
            input[i] = (byte) (i * 7 + i / 256);
        }
        Processes.Result r = box.shellgate(env(route), input, args("-c", "cat; printf '\\001err\\r\\n\\377' >&2"));
        assertThat(r.code()).isEqualTo(0);
        assertThat(r.outBytes()).isEqualTo(input);
        assertThat(r.errBytes()).isEqualTo(new byte[] {1, 'e', 'r', 'r', '\r', '\n', (byte) 0xff});
    }

    @ParameterizedTest
    @EnumSource(Route.class)
    void aRefusedCommandNeverStarts(Route route) throws Exception {
        Map<String, String> env = env(route);
        Path marker = Files.writeString(box.work.resolve("marker"), "still here");
        Processes.Result ask = sh(env, "-c", "rm -f marker");
        assertThat(ask.code()).isEqualTo(126);
        assertThat(ask.out()).isEmpty();
        assertThat(ask.err()).isEqualTo("shellgate: refused (not-read-only): needs review (rm is not on the read-only list),"
                + " and waiting for a person is off (SHELLGATE_REVIEW_TIMEOUT_SECONDS=0)\n");
        assertThat(marker).hasContent("still here");

        // a deny refuses the whole line: the harmless part before it does not run either
        Path precious = Files.writeString(box.home.resolve("precious"), "x");
        Processes.Result deny = sh(env, "-c", "touch created; rm -rf ~");
        assertThat(deny.code()).isEqualTo(126);
        assertThat(deny.err()).startsWith("shellgate: refused (").doesNotContain("review").endsWith("\n");
        assertThat(deny.err().lines()).hasSize(1);
        assertThat(precious).exists();
        assertThat(box.work.resolve("created")).doesNotExist();

        // a script file given instead of -c is judged like "sh FILE"
        Path script = Files.writeString(box.work.resolve("script.sh"), "rm -f marker\n");
        Processes.Result file = sh(env, script.toString());
        assertThat(file.code()).isEqualTo(126);
        assertThat(file.err()).startsWith("shellgate: refused (");
        assertThat(marker).exists();
    }

    @ParameterizedTest
    @EnumSource(Route.class)
    void aFunctionExportedInTheEnvironmentIsNotTakenForTheProgram(Route route) throws Exception {
        Map<String, String> env = env(route);
        env.put("BASH_FUNC_ls%%", "() {  touch pwned\n}");
        env.put("WEIRD", "tab\tquote\"back\\slash\nnewline");
        Processes.Result r = sh(env, "-c", "ls");
        assertThat(r.code()).as(r.toString()).isEqualTo(126);
        assertThat(r.err()).startsWith("shellgate: refused (imported-function)");
        assertThat(box.work.resolve("pwned")).doesNotExist();
        // the environment reaches the command unchanged
        Processes.Result echo = sh(env, "-c", "printf %s \"$WEIRD\"");
        assertThat(echo.out()).isEqualTo("tab\tquote\"back\\slash\nnewline");
    }

    @ParameterizedTest
    @EnumSource(Route.class)
    void theShellsOwnOptionsArePassedOn(Route route) throws Exception {
        Map<String, String> env = env(route);
        Processes.Result e = sh(env, "-e", "-c", "false; echo not-reached");
        assertThat(e.code()).isEqualTo(1);
        assertThat(e.out()).isEmpty();
        assertThat(sh(env, "-o", "pipefail", "-c", "false | true").code()).isEqualTo(1);
        assertThat(sh(env, "-c", "false | true").code()).isEqualTo(0);
        Processes.Result x = sh(env, "-x", "-c", "echo hi");
        assertThat(x.out()).isEqualTo("hi\n");
        assertThat(x.err()).isEqualTo("+ echo hi\n");
        for (List<String> login : List.of(List.of("-lc"), List.of("-l", "-c"), List.of("--login", "-c"))) {
            List<String> args = new java.util.ArrayList<>(login);
            args.add("shopt -q login_shell && echo login");
            Processes.Result l = sh(env, args.toArray(String[]::new));
            assertThat(l.out()).as(login + "\n" + l).endsWith("login\n");
        }
        Processes.Result plain = sh(env, "--noprofile", "--norc", "-c", "echo $0", "--");
        assertThat(plain.out()).isEqualTo("--\n");
        Processes.Result ex = sh(env, "-ex", "-c", "echo one; false; echo two");
        assertThat(ex.out()).isEqualTo("one\n");
        assertThat(ex.code()).isEqualTo(1);
    }

    @Test
    void unknownOptionsAreAUsageErrorNotAGuess() throws Exception {
        for (List<String> args : List.of(List.of("-Z", "-c", "true"), List.of("--frobnicate", "-c", "true"),
                List.of("-c"), List.of("-o"), List.of("--shell"))) {
            Processes.Result r = box.shellgate(args.toArray(String[]::new));
            assertThat(r.code()).as(args + "\n" + r).isEqualTo(2);
            assertThat(r.out()).isEmpty();
            assertThat(r.err()).startsWith("shellgate: ").contains("usage: shellgate");
        }
    }

    @Test
    void aMistypedSubcommandIsAUsageErrorWithASuggestionNotAScript() throws Exception {
        Processes.Result chek = box.shellgate("chek", "--", "ls");
        assertThat(chek.code()).as(chek.toString()).isEqualTo(2);
        assertThat(chek.err()).startsWith("shellgate: 'chek' is not a subcommand or a file; did you mean 'check'?");
        assertThat(box.shellgate("doctr").err()).contains("did you mean 'doctor'?");
        assertThat(box.shellgate("version").err()).contains("did you mean '--version'?");
        Processes.Result far = box.shellgate("frobnicate");
        assertThat(far.code()).isEqualTo(2);
        assertThat(far.err()).contains("'frobnicate' is not a subcommand or a file (a script to run must exist");
        assertThat(far.out()).isEmpty();
        // the guarded interactive shell without a terminal: shellgate's own message, not the shell's about /dev/tty
        Processes.Result noTerminal = Processes.run(List.of("setsid", Processes.launcher().toString(), "shell"), box.env,
                (String) null, box.work);
        assertThat(noTerminal.code()).as(noTerminal.toString()).isNotZero();
        assertThat(noTerminal.err()).startsWith("shellgate").doesNotContain("/dev/tty").doesNotContain("line ");
    }

    @Test
    void theDialectFollowsTheShellChosen() throws Exception {
        Map<String, String> env = env(Route.NO_SERVER);
        // in zsh, =ls expands to the path of ls (a command lookup); in bash it is just text
        Processes.Result bash = sh(env, "--shell", "/bin/bash", "-c", "echo =ls");
        assertThat(bash.out()).isEqualTo("=ls\n");
        Processes.Result zsh = sh(env, "--shell", "zsh", "-c", "echo =ls");
        assertThat(zsh.code()).isEqualTo(126);
        assertThat(zsh.err()).contains("refused (");
        Processes.Result version = sh(env, "--shell", "zsh", "-c", "echo $ZSH_VERSION");
        assertThat(version.out()).matches("[0-9][0-9.]*\\n");
        env.put("SHELLGATE_SHELL", "zsh");
        assertThat(sh(env, "-c", "echo $ZSH_VERSION").out()).matches("[0-9][0-9.]*\\n");
    }

    @ParameterizedTest
    @EnumSource(Route.class)
    void theUsersPolicyMayNameTheShellAndAMissingShellIsAnError(Route route) throws Exception {
        Map<String, String> env = env(route);
        env.remove("SHELLGATE_SHELL");
        env.put("SHELL", "/bin/bash");
        Path policy = Files.createDirectories(box.home.resolve(".config/shellgate")).resolve("policy.toml");
        Files.writeString(policy, "[settings]\nshell = \"zsh\"\n");
        assertThat(sh(env, "-c", "echo $ZSH_VERSION").out()).matches("[0-9][0-9.]*\\n");
        Processes.Result missing = sh(env, "--shell", "/no/such/shell", "-c", "echo ran");
        assertThat(missing.code()).isEqualTo(127);
        assertThat(missing.out()).isEmpty();
        assertThat(missing.err()).isEqualTo("shellgate: no shell to run the command: the shell /no/such/shell (--shell)"
                + " is not an executable file or a program on PATH\n");
    }

    @ParameterizedTest
    @EnumSource(Route.class)
    void signalsReachTheCommand(Route route) throws Exception {
        Map<String, String> env = env(route);
        List<String> command = new ArrayList<>(List.of(Processes.launcher().toString()));
        command.addAll(List.of(args("-c", "sleep 60")));
        Process p = Processes.start(command, env, box.work);
        // shellgate and then bash exec, so the process started is the command itself
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (!p.info().command().orElse("").endsWith("/sleep") && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
        assertThat(p.info().command()).hasValueSatisfying(c -> assertThat(c).endsWith("/sleep"));
        p.destroy();
        assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).isEqualTo(128 + 15);
    }

    @Test
    void underShellShellgateItRunsARealShellAndNestedCallsAreJudgedAgain() throws Exception {
        Path launcherDir = Processes.launcher().getParent();
        Map<String, String> env = env(Route.NO_SERVER);
        env.remove("SHELLGATE_SHELL");
        env.put("SHELL", Processes.launcher().toString());
        env.put("PATH", launcherDir + ":/usr/bin:/bin");

        // no recursion: the shell that runs the command is a real one
        Processes.Result self = sh(env, "-c", "printf %s \"$0\"");
        assertThat(self.code()).as(self.toString()).isEqualTo(0);
        assertThat(self.out()).matches(".*/(zsh|bash|sh)");
        assertThat(sh(env, "-c", "printf %s \"$SHELL\"").out()).isEqualTo(Processes.launcher().toString());

        // shellgate found in a temporary directory is not a trusted program
        Path tmpBin = Files.createDirectories(dir.resolve("bin"));
        Files.createSymbolicLink(tmpBin.resolve("shellgate"), Processes.launcher());
        Map<String, String> tmpEnv = new HashMap<>(env);
        tmpEnv.put("PATH", tmpBin + ":/usr/bin:/bin");
        Processes.Result untrusted = sh(tmpEnv, "-c", "shellgate -c 'echo inner'");
        assertThat(untrusted.code()).as(untrusted.toString()).isEqualTo(126);
        assertThat(untrusted.err()).contains("refused (untrusted-program)");

        // once its directory is trusted, shellgate -c is a shell whose command is judged like bash -c
        Path policy = Files.createDirectories(box.home.resolve(".config/shellgate")).resolve("policy.toml");
        Files.writeString(policy, "[settings]\ntrusted-dirs = [\"" + launcherDir + "\"]\n");
        Processes.Result nested = sh(env, "-c", "shellgate -c 'echo inner'");
        assertThat(nested.code()).as(nested.toString()).isEqualTo(0);
        assertThat(nested.out()).isEqualTo("inner\n");
        Path marker = Files.writeString(box.work.resolve("marker"), "x");
        Processes.Result refused = sh(env, "-c", "shellgate -c 'rm -f marker'");
        assertThat(refused.code()).isEqualTo(126);
        assertThat(marker).exists();
    }

    /**
     * The native client under the name shellgate, with no launcher script beside it: an allow execs
     * the real shell and a refusal is its own line, so neither went through the script; what it cannot
     * relay fails closed, naming the missing script.
     */
    @Test
    void theNativeClientRunsOrRefusesWithoutTheScript() throws Exception {
        Path client = Processes.hookClient();
        Map<String, String> env = env(Route.NATIVE);
        Path lib = Files.createDirectories(dir.resolve("alone/lib"));
        Files.copy(client, lib.resolve("shellgate-hook"), StandardCopyOption.COPY_ATTRIBUTES);
        Path shellgate = Files.createDirectories(dir.resolve("alone/bin")).resolve("shellgate");
        Files.createSymbolicLink(shellgate, lib.resolve("shellgate-hook"));
        Processes.Result ran = Processes.run(List.of(shellgate.toString(), "-lc", "printf '[%s]' \"$0\" \"$@\"", "name", "a b"),
                env, (byte[]) null, box.work);
        assertThat(ran.code()).as(ran.toString()).isZero();
        assertThat(ran.out()).isEqualTo("[name][a b]");
        Processes.Result denied = Processes.run(List.of(shellgate.toString(), "-c", "touch created; rm -rf ~"), env, (byte[]) null, box.work);
        assertThat(denied.code()).as(denied.toString()).isEqualTo(126);
        assertThat(denied.err()).startsWith("shellgate: refused (").endsWith("\n");
        assertThat(denied.err().lines()).hasSize(1);
        assertThat(box.work.resolve("created")).doesNotExist();
        Processes.Result noShell = Processes.run(List.of(shellgate.toString(), "--shell", "/no/such/shell", "-c", "echo ran"), env,
                (byte[]) null, box.work);
        assertThat(noShell.code()).as(noShell.toString()).isEqualTo(127);
        assertThat(noShell.err()).isEqualTo("shellgate: no shell to run the command: the shell /no/such/shell (--shell)"
                + " is not an executable file or a program on PATH\n");
        Processes.Result notRelayed = Processes.run(List.of(shellgate.toString(), "check", "--", "ls"), env, (byte[]) null, box.work);
        assertThat(notRelayed.code()).as(notRelayed.toString()).isEqualTo(126);
        assertThat(notRelayed.err()).contains("cannot run " + lib.resolve("shellgate"));
    }

    @Test
    void withoutAServerTheNativeClientHandsOverAndTheScriptStartsOneForTheNext() throws Exception {
        Processes.hookClient();
        Processes.Result first = box.shellgate(box.env, null, "-c", "echo first");
        assertThat(first.code()).as(first.toString()).isZero();
        assertThat(first.out()).isEqualTo("first\n");
        box.awaitOnDemandServer();
        Map<String, String> serverOnly = new HashMap<>(box.env);
        serverOnly.put("SHELLGATE_JAVA_HOME", box.root.resolve("no-jdk-here").toString());
        Processes.Result next = box.shellgate(serverOnly, null, "-c", "echo next");
        assertThat(next.code()).as(next.toString()).isZero();
        assertThat(next.out()).isEqualTo("next\n");
        assertThat(box.shellgate(serverOnly, null, "-c", "rm -rf ~").code()).isEqualTo(126);
    }

    /**
     * A listener on the server's port that is not the server (it knows no proof) answers allow: the
     * native client does not believe it and hands over, and the script judges in a JVM of its own
     * without asking the listener again.
     */
    @Test
    void anAllowWithoutTheProofIsNotBelievedAndNotAskedForTwice() throws Exception {
        Processes.hookClient();
        Files.createDirectories(box.run);
        Files.setPosixFilePermissions(box.run, PosixFilePermissions.fromString("rwx------"));
        List<String> requests = new CopyOnWriteArrayList<>();
        try (ServerSocket listener = new ServerSocket(0, 5, InetAddress.getLoopbackAddress())) {
            for (String[] file : List.of(new String[] {"server.port", String.valueOf(listener.getLocalPort())},
                    new String[] {"server.token", "a".repeat(64)}, new String[] {"server.proof", "b".repeat(64)})) {
                Path f = box.run.resolve(file[0]);
                Files.writeString(f, file[1] + "\n");
                Files.setPosixFilePermissions(f, PosixFilePermissions.fromString("rw-------"));
            }
            Processes.thread(() -> {
                while (!listener.isClosed()) {
                    try (Socket s = listener.accept()) {
                        requests.add(new BufferedReader(new InputStreamReader(s.getInputStream(), StandardCharsets.UTF_8)).readLine());
                        s.getOutputStream().write(("{\"v\":1,\"tier\":\"allow\",\"rule\":\"x\",\"message\":\"x\",\"shell\":\"/bin/bash\","
                                + "\"dialect\":\"bash\",\"run\":true,\"step\":\"judge\",\"decided\":\"x\",\"proof\":\"" + "c".repeat(64)
                                + "\"}\n").getBytes(StandardCharsets.UTF_8));
                    } catch (IOException e) {
                        // closed
                    }
                }
            });
            Path marker = Files.writeString(box.work.resolve("marker"), "still here");
            Map<String, String> env = new HashMap<>(box.env);
            Processes.Result r = box.shellgate(env, null, "-c", "rm -f marker");
            assertThat(r.code()).as(r.toString()).isEqualTo(126);
            assertThat(r.err()).startsWith("shellgate: refused (not-read-only)");
            assertThat(marker).exists();
            assertThat(requests).hasSize(1);
            assertThat(requests.getFirst()).contains("\"op\":\"judge\"").contains("\"cmd\":\"rm -f marker\"")
                    .contains("\"token\":\"" + "a".repeat(64) + "\"");
        }
    }
}
