package io.shellgate.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@code shellgate wrap} catches every shell the agent's process tree starts, however it is found,
 * and lets through the shells started inside a command the gate already let run. The "agent" is a
 * JVM (AgentTarget) that runs each line of its input with a shell, as agents' shell tools do.
 */
class WrapShellsTest extends SandboxTest {

    private Path tools;

    @BeforeEach
    void agentWorld() throws Exception {
        tools = Files.createDirectories(box.root.resolve("tools"));
        box.env.remove("SHELLGATE_SHELL");
        box.env.put("SHELL", "/bin/bash");
        box.env.put("PATH", tools + ":/usr/local/bin:/usr/bin:/bin");
        box.env.put("npm_config_update_notifier", "false");
    }

    /** Runs the agent under {@code wrap --layer LAYER}: each line with {@code shell}. */
    private Processes.Result agent(String layer, List<String> shell, String... lines) throws Exception {
        List<String> command = new ArrayList<>(List.of(Processes.launcher().toString(), "wrap", "--layer", layer, "--",
                LauncherScriptTest.jdk("17").resolve("bin/java").toString(), "-Xshare:auto", "-cp",
                AgentJvm.targetClasses().toString(), "AgentTarget", "shell-lines"));
        command.addAll(shell);
        return Processes.run(command, box.env, String.join("\n", lines) + "\n", box.work);
    }

    private static List<String> ran(Processes.Result r) {
        return r.out().lines().toList();
    }

    @Test
    void theNamespaceCatchesEveryWayAnAgentFindsAShell() throws Exception {
        List<List<String>> shells = new ArrayList<>(List.of(List.of("/bin/bash", "-c"), List.of("/usr/bin/bash", "-lc"),
                List.of("bash", "-c"), List.of("sh", "-c"), List.of("/bin/sh", "-c"), List.of("/usr/bin/env", "bash", "-c")));
        if (Files.isExecutable(Path.of("/usr/bin/dash"))) {
            shells.add(List.of("/usr/bin/dash", "-c"));
        }
        if (Files.isExecutable(Path.of("/usr/bin/zsh")) || Files.isExecutable(Path.of("/bin/zsh"))) {
            shells.add(List.of("zsh", "-c"));
        }
        for (List<String> shell : shells) {
            Processes.Result r = agent("namespace", shell, "echo hello", "touch marker");
            assertThat(r.err()).as("%s: %s", shell, r).startsWith("shellgate wrap: namespace layer");
            assertThat(ran(r)).as("%s: %s", shell, r).containsExactly("RAN exit=0 out=hello", "RAN exit=126 out=");
            assertThat(r.err()).as("%s", shell).contains("shellgate: refused (not-read-only)");
            assertThat(box.work.resolve("marker")).as("%s", shell).doesNotExist();
        }
    }

    @Test
    void aDeepRunDirectoryStillGetsTheNamespace() throws Exception {
        // the entries name the hidden bash on their first line, which the kernel reads only so far
        Path deep = box.root.resolve("a-run-directory-deep-enough-that-its-paths-do-not-fit-a-first-line/".repeat(3) + "run");
        box.env.put("SHELLGATE_RUN_DIR", deep.toString());
        List<String> before = shortDirectories();
        Processes.Result r = agent("namespace", List.of("/bin/bash", "-c"), "echo hello", "touch marker");
        assertThat(r.err()).as(r.toString()).startsWith("shellgate wrap: namespace layer").doesNotContain("did not answer");
        assertThat(ran(r)).as(r.toString()).containsExactly("RAN exit=0 out=hello", "RAN exit=126 out=");
        assertThat(box.work.resolve("marker")).doesNotExist();
        // the server wrap started keeps its socket under /tmp too (a Unix socket's path is short)
        ProcessHandle server = ProcessHandle.of(Long.parseLong(Files.readString(deep.resolve("server.pid")).strip())).orElseThrow();
        server.destroy();
        server.onExit().get(60, java.util.concurrent.TimeUnit.SECONDS);
        assertThat(shortDirectories()).as("the short directories are removed when the agent and the server exit").isEqualTo(before);
    }

    private static List<String> shortDirectories() throws Exception {
        try (var all = Files.list(Path.of("/tmp"))) {
            return all.map(p -> p.getFileName().toString()).filter(n -> n.startsWith("sg-")).sorted().toList();
        }
    }

    @Test
    void thePathLayerCatchesShellsFoundByNameAndSaysWhatItMisses() throws Exception {
        Processes.Result byName = agent("path", List.of("sh", "-c"), "touch by-name", "echo \"$SHELL\"");
        assertThat(ran(byName)).as(byName.toString()).hasSize(2);
        assertThat(ran(byName).getFirst()).isEqualTo("RAN exit=126 out=");
        assertThat(box.work.resolve("by-name")).doesNotExist();
        assertThat(byName.err()).contains("path layer (asked for with --layer path)")
                .contains("not caught: absolute paths (/bin/bash, /usr/bin/sh");
        // the documented gap of this layer: an absolute path reaches the real shell
        Processes.Result absolute = agent("path", List.of("/bin/sh", "-c"), "touch absolute");
        assertThat(ran(absolute)).as(absolute.toString()).containsExactly("RAN exit=0 out=");
        assertThat(box.work.resolve("absolute")).exists();
    }

    @Test
    void shellsStartedInsideACommandTheGateLetRunAreNotJudgedAgain() throws Exception {
        // a script with a #! line, a pyenv-style shim, a make recipe, a git hook and an npm script:
        // each starts shells of its own once a person has approved the command that runs it
        script(tools.resolve("script.sh"), "#!/usr/bin/env bash\necho script-ran\nbash -c 'touch nested-script'\n");
        script(tools.resolve("mytool"), "#!/usr/bin/env bash\nset -e\nprogram=\"${0##*/}\"\n"
                + "exec /usr/bin/env bash -c 'echo \"$0 ran\"; touch shim-ran' \"$program\" \"$@\"\n");
        Files.writeString(box.work.resolve("Makefile"), "test:\n\ttouch made && echo recipe-ran\n");
        Files.writeString(box.work.resolve("package.json"),
                "{\"name\":\"t\",\"version\":\"1.0.0\",\"scripts\":{\"test\":\"sh -c 'echo npm-ran' && touch npmed\"}}\n");
        git("init", "-q", ".");
        git("config", "user.email", "t@example.com");
        git("config", "user.name", "t");
        script(box.work.resolve(".git/hooks/pre-commit"), "#!/bin/sh\ntouch hooked\n");
        git("add", "Makefile");
        Files.createDirectories(box.home.resolve(".config/shellgate"));
        Files.writeString(box.home.resolve(".config/shellgate/policy.toml"), """
                [settings]
                trusted-dirs = ["%s"]
                %s%s%s%s%s""".formatted(tools, approved("a1", "script.sh"), approved("a2", "mytool --version"),
                approved("a3", "make test"), approved("a4", "git commit -qm x"), approved("a5", "npm test")));
        Processes.Result r = agent("namespace", List.of("/bin/bash", "-c"), "script.sh", "mytool --version", "make test",
                "git commit -qm x", "npm test", "bash -c 'touch direct'");
        List<String> results = ran(r).stream().filter(l -> l.startsWith("RAN ")).toList();
        assertThat(results).as(r.toString()).hasSize(6);
        assertThat(results.subList(0, 5)).as(r.toString()).allMatch(l -> l.startsWith("RAN exit=0 "));
        assertThat(r.out()).contains("RAN exit=0 out=script-ran").contains("RAN exit=0 out=mytool ran").contains("recipe-ran")
                .contains("npm-ran");
        for (String marker : List.of("nested-script", "shim-ran", "made", "hooked", "npmed")) {
            assertThat(box.work.resolve(marker)).as(marker + ": " + r).exists();
        }
        // a shell the agent's own line starts is judged with the line, and nobody approved it
        assertThat(results.get(5)).isEqualTo("RAN exit=126 out=");
        assertThat(box.work.resolve("direct")).doesNotExist();
    }

    @Test
    void theAgentCannotForgeOrReadThePass() throws Exception {
        Map<String, String> env = new HashMap<>(box.env);
        // a pass in the agent's own environment (an injected .env, say) is dropped by wrap
        box.env.put("SHELLGATE_PASS", "forged");
        Processes.Result r = agent("namespace", List.of("/bin/bash", "-c"), "touch f1", "SHELLGATE_PASS=forged bash -c 'touch f2'",
                "cat " + box.run + "/wrap-*/pass.key", "cat /proc/self/environ");
        box.env.clear();
        box.env.putAll(env);
        assertThat(ran(r)).as(r.toString()).containsExactly("RAN exit=126 out=", "RAN exit=126 out=", "RAN exit=126 out=",
                "RAN exit=126 out=");
        assertThat(box.work.resolve("f1")).doesNotExist();
        assertThat(box.work.resolve("f2")).doesNotExist();
    }

    @Test
    void aPassThatEscapedIntoTheAgentsEnvironmentLetsNoShellOfTheAgentThrough() throws Exception {
        // an approved command prints its environment (as Copilot CLI's login-environment probe does with env -0, keeping
        // what it printed for every later command): the agent then starts its own shells with that pass
        script(tools.resolve("leak.sh"), "#!/usr/bin/env bash\nprintf '%s\\n' \"$SHELLGATE_PASS\"\nbash -c 'touch nested-ran'\n");
        Files.createDirectories(box.home.resolve(".config/shellgate"));
        Files.writeString(box.home.resolve(".config/shellgate/policy.toml"), """
                [settings]
                trusted-dirs = ["%s"]
                %s""".formatted(tools, approved("a1", "leak.sh")));
        Path agent = box.root.resolve("agent.py");
        Files.writeString(agent, """
                import os, subprocess, sys
                leaked = subprocess.run(["/bin/bash", "-c", "leak.sh"], capture_output=True, text=True).stdout.split()
                print("LEAKED", len(leaked) == 1 and leaked[0].count(".") == 2)
                for name, value in (("escaped", leaked[0] if leaked else ""), ("key-only", leaked[0].split(".")[0] if leaked else "")):
                    env = dict(os.environ, SHELLGATE_PASS=value)
                    r = subprocess.run(["/bin/bash", "-c", "touch " + name], env=env, capture_output=True, text=True)
                    print("RAN", name, r.returncode)
                """);
        Processes.Result r = Processes.run(List.of(Processes.launcher().toString(), "wrap", "--layer", "namespace", "--",
                "/usr/bin/python3", agent.toString()), box.env, "", box.work);
        // the approved command's own nested shell went through with the pass; the agent's shells did not
        assertThat(r.out()).as(r.toString()).contains("LEAKED True").contains("RAN escaped 126").contains("RAN key-only 126");
        assertThat(box.work.resolve("nested-ran")).as(r.toString()).exists();
        assertThat(box.work.resolve("escaped")).doesNotExist();
        assertThat(box.work.resolve("key-only")).doesNotExist();
    }

    @Test
    void theAgentsOwnFileCallsCannotChangeTheGatesFilesWhileTheServerStillWritesThem() throws Exception {
        Path policy = Files.createDirectories(box.home.resolve(".config/shellgate")).resolve("policy.toml");
        Files.writeString(policy, "version = 1\n");
        Path state = box.home.resolve(".local/state/shellgate");
        // a first command, judged by the server wrap starts outside the namespace, makes the audit log
        Processes.Result first = agent("namespace", List.of("/bin/bash", "-c"), "echo first");
        assertThat(ran(first)).as(first.toString()).containsExactly("RAN exit=0 out=first");
        Path audit = state.resolve("audit.jsonl");
        long before = Files.readAllLines(audit).size();
        String token = Files.readString(box.run.resolve("server.token"));
        List<Path> gate = List.of(policy, box.home.resolve(".config/shellgate/other.toml"), audit, state.resolve("planted"),
                box.run.resolve("server.token"), box.run.resolve("server.port"), box.run.resolve("planted"));
        List<String> command = new ArrayList<>(List.of(Processes.launcher().toString(), "wrap", "--layer", "namespace", "--",
                LauncherScriptTest.jdk("17").resolve("bin/java").toString(), "-Xshare:auto", "-cp",
                AgentJvm.targetClasses().toString(), "AgentTarget", "write-files", box.work.resolve("ok.txt").toString()));
        gate.forEach(p -> command.add(p.toString()));
        Processes.Result r = Processes.run(command, box.env, "", box.work);
        assertThat(r.out().lines().filter(l -> l.startsWith("WROTE ")))
                .as(r.toString()).hasSize(9).allMatch(l -> l.startsWith("WROTE " + box.work.resolve("ok.txt") + " via "));
        assertThat(r.out().lines().filter(l -> l.startsWith("KEPT "))).as(r.toString()).hasSize(9 * gate.size());
        assertThat(Files.readString(policy)).isEqualTo("version = 1\n");
        assertThat(Files.readString(box.run.resolve("server.token"))).isEqualTo(token);
        assertThat(box.run.resolve("planted")).doesNotExist();
        assertThat(state.resolve("planted")).doesNotExist();
        assertThat(Files.readAllLines(audit)).hasSize((int) before);

        // the judge server, outside, still writes the audit log while an agent's namespace holds it read-only
        Processes.Result later = agent("namespace", List.of("/bin/bash", "-c"), "echo later", "touch refused");
        assertThat(ran(later)).as(later.toString()).containsExactly("RAN exit=0 out=later", "RAN exit=126 out=");
        assertThat(Files.readAllLines(audit)).hasSizeGreaterThanOrEqualTo((int) before + 2);
    }

    @Test
    void aPersonsRememberedAnswerIsWrittenByTheServerWhileTheNamespaceHoldsThePolicyReadOnly() throws Exception {
        Path policy = Files.createDirectories(box.home.resolve(".config/shellgate")).resolve("policy.toml");
        Files.writeString(policy, "version = 1\n");
        box.env.put("SHELLGATE_REVIEW_TIMEOUT_SECONDS", "120");
        try (ApprovalsWatch watch = ApprovalsWatch.start(box)) {
            // the agent asks twice for the same line; a person remembers the first answer for the project
            CompletableFuture<Processes.Result> run = CompletableFuture.supplyAsync(() -> {
                try {
                    return agent("namespace", List.of("/bin/bash", "-c"), "touch remembered", "touch remembered");
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            }, Processes::thread);
            assertThat(watch.awaitQuestion()).contains("    touch remembered");
            assertThat(watch.answer("p")).contains("always in this project");
            Processes.Result r = run.get(180, TimeUnit.SECONDS);
            // the second line is answered from the approval the server just wrote: no second question
            assertThat(ran(r)).as(r.toString()).containsExactly("RAN exit=0 out=", "RAN exit=0 out=");
        }
        assertThat(box.work.resolve("remembered")).exists();
        // the server, outside the namespace, wrote the approval into the policy the agent cannot write
        assertThat(Files.readString(policy)).contains("[[approved]]").containsPattern("command = \"touch [^\"]*remembered\"");
        // and it answers the next session's same line from it, with nobody watching
        Files.delete(box.work.resolve("remembered"));
        Processes.Result again = agent("namespace", List.of("/bin/bash", "-c"), "touch remembered");
        assertThat(ran(again)).as(again.toString()).containsExactly("RAN exit=0 out=");
        assertThat(box.work.resolve("remembered")).exists();
    }

    @Test
    void theAgentsOwnCodeReachesNoUnjudgedShellThroughProc() throws Exception {
        // a person's bash outside the agent's namespace, and the one the agent's allowed command runs inside
        Process outside = new ProcessBuilder("/bin/bash", "-c", "sleep 300; :").start();
        try {
            List<String> command = new ArrayList<>(List.of(Processes.launcher().toString(), "wrap", "--layer", "namespace", "--",
                    LauncherScriptTest.jdk("17").resolve("bin/java").toString(), "-Xshare:auto", "-cp",
                    AgentJvm.targetClasses().toString(), "AgentTarget", "proc-shells", Long.toString(outside.pid()),
                    box.work.toString()));
            Processes.Result r = Processes.run(command, box.env, "", box.work);
            assertThat(r.out()).as(r.toString()).contains("FOUND\n");
            List<String> tried = r.out().lines().filter(l -> l.startsWith("TRIED ")).toList();
            assertThat(tried).as(r.toString()).hasSize(3);
            for (String kind : List.of("inside-exe", "outside-exe", "outside-root")) {
                assertThat(box.work.resolve(kind)).as(kind + ": " + r).doesNotExist();
            }
        } finally {
            outside.destroyForcibly().waitFor();
        }
    }

    @Test
    void theOncePassOfAnAgentThatIsAShellCannotBeMadeAgain() throws Exception {
        // the agent is a shell (its own start is let through once); from there it writes a once-only pass of
        // its own where the first one was, and starts a shell with it
        Processes.Result r = box.shellgate("wrap", "--layer", "namespace", "--", "/bin/bash", "-c", """
                for d in %s/wrap-*; do
                    mkdir -p "$d/once" 2>/dev/null; echo forged 2>/dev/null > "$d/once/once.key"
                done
                SHELLGATE_PASS_ONCE=forged /bin/bash -c 'touch forged'; echo "forged: $?"
                """.formatted(box.run));
        assertThat(r.out()).as(r.toString()).isEqualTo("forged: 126\n");
        assertThat(box.work.resolve("forged")).doesNotExist();
    }

    @Test
    void busyboxsShellsAreJudgedAndItsOtherAppletsRun() throws Exception {
        Path busybox = Path.of("/usr/bin/busybox");
        org.junit.jupiter.api.Assumptions.assumeTrue(Files.isExecutable(busybox), "busybox is not installed (apt-get install busybox)");
        // busybox as the sh the agent finds first on PATH, as where /bin/sh is busybox
        Files.createSymbolicLink(tools.resolve("sh"), busybox);
        List<String> results = new ArrayList<>();
        List<List<String>> starts = List.of(List.of(busybox.toString(), "echo", "applet-ran"), List.of("sh", "-c", "echo judged-sh"),
                List.of(busybox.toString(), "sh", "-c", "touch by-busybox-sh"), List.of("sh", "-c", "touch by-sh"),
                List.of(busybox.toString(), "ash", "-c", "touch by-busybox-ash"));
        for (List<String> argv : starts) {
            // the agent's own code starts each program directly, no shell around it
            List<String> command = new ArrayList<>(List.of(Processes.launcher().toString(), "wrap", "--layer", "namespace", "--",
                    LauncherScriptTest.jdk("17").resolve("bin/java").toString(), "-Xshare:auto", "-cp",
                    AgentJvm.targetClasses().toString(), "AgentTarget", "pb"));
            command.addAll(argv);
            Processes.Result r = Processes.run(command, box.env, "", box.work);
            results.add(ran(r).stream().filter(l -> l.startsWith("RAN ") || l.startsWith("FAILED ")).findFirst().orElse(r.toString()));
        }
        assertThat(results).containsExactly("RAN exit=0 out=applet-ran", "RAN exit=0 out=judged-sh", "RAN exit=126 out=",
                "RAN exit=126 out=", "RAN exit=126 out=");
        for (String marker : List.of("by-busybox-sh", "by-sh", "by-busybox-ash")) {
            assertThat(box.work.resolve(marker)).as(marker).doesNotExist();
        }
    }

    @Test
    void aShellWhoseLanguageIsNotJudgedIsRefused() throws Exception {
        script(tools.resolve("fish"), "#!/bin/sh\necho fish-ran\n");
        Processes.Result r = agent("namespace", List.of("fish", "-c"), "echo hi");
        assertThat(ran(r)).as(r.toString()).containsExactly("RAN exit=126 out=");
        assertThat(r.err()).contains("shellgate: refused (shell-not-judged): " + tools.resolve("fish"));
    }

    private static String approved(String id, String command) {
        return "\n[[approved]]\nid = \"" + id + "\"\ncommand = \"" + command + "\"\n";
    }

    private void git(String... args) throws Exception {
        List<String> command = new ArrayList<>(List.of("git"));
        command.addAll(List.of(args));
        Processes.Result r = Processes.run(command, box.env, (String) null, box.work);
        assertThat(r.code()).as(r.toString()).isZero();
    }

    private static void script(Path file, String text) throws Exception {
        Files.createDirectories(file.getParent());
        Files.writeString(file, text);
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rwxr-xr-x"));
    }
}
