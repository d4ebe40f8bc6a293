package io.shellgate.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.tools.attach.VirtualMachine;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The javaagent in real JVMs (JDK 17 through the judge server, JDK 25 in-process and through the
 * server) around a small tool that starts processes: what is allowed runs, what is refused throws
 * a ShellgateRefusedException with its rule and never runs (marker files stay absent).
 */
@ExtendWith(AgentTransformationErrors.class)
@Execution(ExecutionMode.CONCURRENT)
class JavaAgentTest {

    /** A user policy that lets touch count as read-only, so that a pipeline stage can leave a trace. */
    private static final String TOUCH_IS_READ_ONLY = """
            [[read-only]]
            id = "test-touch"
            command = ["touch"]
            reason = "in this test, touch counts as read-only"
            options = []
            operands = "files"
            match = ["touch f"]
            not-match = ["touch -d x f"]
            """;

    @TempDir
    Path dir;

    private Sandbox box;
    private Path marker;

    static Stream<AgentJvm> jvms() throws Exception {
        return Stream.of(AgentJvm.of(17, "server"), AgentJvm.of(25, "in-process"), AgentJvm.of(25, "server"));
    }

    /**
     * For what the review, the policies and the audit log decide, the same on every JVM: both
     * judges, each on the JDK it is meant for (JDK 25 through the server adds the JDK 25
     * instrumentation, which the in-process case has, to the server path, which JDK 17's has).
     */
    static Stream<AgentJvm> judges() throws Exception {
        return Stream.of(AgentJvm.of(17, "server"), AgentJvm.of(25, "in-process"));
    }

    @BeforeEach
    void sandbox() throws Exception {
        box = new Sandbox(dir);
        marker = box.root.resolve("marker");
    }

    @AfterEach
    void stopServers() throws Exception {
        box.close();
    }

    private static String line(Processes.Result r) {
        assertThat(r.code()).as(r.toString()).isZero();
        return r.out().strip();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("jvms")
    void allowedCommandsRunAndPrintTheirOutput(AgentJvm jvm) throws Exception {
        assertThat(line(jvm.run(box, "", "pb", "echo", "hello world"))).isEqualTo("RAN exit=0 out=hello world");
        assertThat(line(jvm.run(box, "", "pb", "bash", "-lc", "ls -d /usr"))).isEqualTo("RAN exit=0 out=/usr");
        assertThat(line(jvm.run(box, "", "pb", "sh", "-c", "echo \"$1\"", "name", "first"))).isEqualTo("RAN exit=0 out=first");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("jvms")
    void deniedCommandThrowsWithItsRuleAndNeverRuns(AgentJvm jvm) throws Exception {
        String out = line(jvm.run(box, "", "pb", "bash", "-c", "touch " + marker + "; rm -rf /"));
        assertThat(out).startsWith("REFUSED class=io.shellgate.interceptor.ShellgateRefusedException rule=rm-recursive-critical"
                + " tier=deny msg=shellgate: refused (rm-recursive-critical): recursively deletes");
        assertThat(marker).doesNotExist();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("jvms")
    void askIsRefusedSayingThatItNeededReview(AgentJvm jvm) throws Exception {
        String out = line(jvm.run(box, "", "pb", "touch", marker.toString()));
        assertThat(out).startsWith("REFUSED class=io.shellgate.interceptor.ShellgateRefusedException rule=not-read-only tier=ask")
                .containsPattern("need(s|ed) review");
        assertThat(marker).doesNotExist();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("judges")
    void anAskTheReviewApprovesRuns(AgentJvm jvm) throws Exception {
        // a remembered approval (the review's first step) for exactly this command line, as the
        // agent shows it: the program as the JDK will run it, found in the JVM's PATH
        Path touch = Stream.of("/usr/bin/touch", "/bin/touch").map(Path::of).filter(Files::isExecutable).findFirst().orElseThrow();
        Files.createDirectories(box.home.resolve(".config/shellgate"));
        Files.writeString(box.home.resolve(".config/shellgate/policy.toml"),
                "[[approved]]\nid = \"approved-test\"\ncommand = \"" + touch + " " + marker + "\"\n");
        assertThat(line(jvm.run(box, "", "pb", "touch", marker.toString()))).isEqualTo("RAN exit=0 out=");
        assertThat(marker).exists();
        assertThat(box.shellgate("log", "--json").out().lines().toList().getLast()).contains("\"step\":\"memory\"")
                .contains("\"run\":true").contains("\"entry\":\"javaagent\"");
        // the approval covers that line only
        assertThat(line(jvm.run(box, "", "pb", "touch", marker + "2"))).contains("rule=not-read-only tier=ask");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("judges")
    void aPersonWatchingApprovesTheToolsAskFromAnotherTerminal(AgentJvm jvm) throws Exception {
        Map<String, String> env = new HashMap<>(box.env);
        env.put("SHELLGATE_REVIEW_TIMEOUT_SECONDS", "60");
        try (ApprovalsWatch watch = ApprovalsWatch.start(box)) {
            CompletableFuture<Processes.Result> tool = CompletableFuture.supplyAsync(() -> {
                try {
                    return jvm.run(box, env, "", List.of(), "pb", "touch", marker.toString());
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            }, Processes::thread);
            assertThat(watch.awaitQuestion()).contains("javaagent, pid ").contains("AgentTarget").contains("touch " + marker);
            assertThat(marker).doesNotExist();
            assertThat(watch.answer("y")).contains("once");
            assertThat(line(tool.get(60, TimeUnit.SECONDS))).isEqualTo("RAN exit=0 out=");
        }
        assertThat(marker).exists();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("judges")
    void anAskWithNobodyToAskIsRefusedAtOnce(AgentJvm jvm) throws Exception {
        Map<String, String> env = new HashMap<>(box.env);
        // ten minutes for a person, and nobody watching: refused at once all the same
        env.put("SHELLGATE_REVIEW_TIMEOUT_SECONDS", "600");
        String out = line(jvm.run(box, env, "", List.of(), "pb", "touch", marker.toString()));
        assertThat(out).contains("rule=not-read-only tier=ask").contains("nobody can answer")
                .contains("shellgate approvals --watch");
        assertThat(marker).doesNotExist();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("jvms")
    void runtimeExecOfAStringIsJudgedAsTheArgvTheJdkMakesOfIt(AgentJvm jvm) throws Exception {
        // the JDK splits at spaces only: echo gets "a;touch" and the marker path as words, nothing else runs
        assertThat(line(jvm.run(box, "", "exec", "echo a;touch " + marker))).isEqualTo("RAN exit=0 out=a;touch " + marker);
        assertThat(line(jvm.run(box, "", "exec", "touch " + marker))).contains("rule=not-read-only tier=ask");
        assertThat(line(jvm.run(box, "", "exec-array", "rm", "-rf", "/"))).contains("rule=rm-recursive-critical tier=deny");
        assertThat(marker).doesNotExist();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("jvms")
    void runtimeExecWithEnvironmentAndDirectoryRunsThereAndIsJudgedThere(AgentJvm jvm) throws Exception {
        Path work = Files.createDirectories(box.root.resolve("elsewhere"));
        Files.writeString(work.resolve("only-here.txt"), "x");
        assertThat(line(jvm.run(box, "", "exec-env-dir", "ls", work.toString(), "TZ=UTC"))).isEqualTo("RAN exit=0 out=only-here.txt");
        assertThat(line(jvm.run(box, "", "exec-env-dir", "touch made", work.toString(), "TZ=UTC"))).contains("tier=ask");
        assertThat(work.resolve("made")).doesNotExist();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("judges")
    void theBuildersDirectoryIsWhereTheProjectPolicyIsFound(AgentJvm jvm) throws Exception {
        Path project = Files.createDirectories(box.root.resolve("project/.shellgate")).getParent();
        Files.writeString(project.resolve(".shellgate/policy.toml"), Sandbox.DENY_MAKE_DEPLOY);
        assertThat(line(jvm.run(box, "", "pb-in", project.toString(), "TZ=UTC", "make", "deploy")))
                .contains("rule=no-make-deploy tier=deny");
        assertThat(line(jvm.run(box, "", "pb-in", box.work.toString(), "TZ=UTC", "make", "deploy")))
                .contains("rule=not-read-only tier=ask");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("jvms")
    void variablesTheToolGivesTheChildAreJudgedAsAssignmentsInFrontOfIt(AgentJvm jvm) throws Exception {
        // what a shell would write as NAME=value cmd: a library preloaded into a harmless program runs its code
        Path lib = Files.writeString(box.root.resolve("evil.so"), "x");
        assertThat(line(jvm.run(box, "", "pb-in", box.work.toString(), "LD_PRELOAD=" + lib, "/bin/true")))
                .contains("rule=dangerous-variable tier=ask").contains("LD_PRELOAD");
        // bash runs the file BASH_ENV names before its script
        Path rc = Files.writeString(box.root.resolve("rc.sh"), "touch " + marker + "\n");
        assertThat(line(jvm.run(box, "", "pb-in", box.work.toString(), "BASH_ENV=" + rc, "bash", "-c", "ls")))
                .contains("rule=dangerous-variable tier=ask");
        // a kubeconfig can name a program to run; one the policy does not know asks too; a safe one does not
        assertThat(line(jvm.run(box, "", "pb-in", box.work.toString(), "KUBECONFIG=/tmp/k", "echo", "x")))
                .contains("rule=dangerous-variable tier=ask").contains("KUBECONFIG");
        assertThat(line(jvm.run(box, "", "pb-in", box.work.toString(), "SG_NOT_A_KNOWN_SETTING=/tmp/k", "echo", "x")))
                .contains("rule=environment-assignment tier=ask");
        assertThat(line(jvm.run(box, "", "pb-in", box.work.toString(), "LANG=C", "echo", "x"))).isEqualTo("RAN exit=0 out=x");
        assertThat(marker).doesNotExist();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("jvms")
    void filesOnTheStandardStreamsAreJudgedAsTheShellsRedirections(AgentJvm jvm) throws Exception {
        // the JVM opens them for the child: a harmless echo with its output sent to ~/.bashrc writes it
        Path bashrc = box.home.resolve(".bashrc");
        assertThat(line(jvm.run(box, "", "pb-to", bashrc.toString(), "echo", "evil"))).contains("rule=writes-file tier=ask")
                .contains("writes to " + bashrc);
        assertThat(bashrc).doesNotExist();
        assertThat(line(jvm.run(box, "", "pb-append", marker.toString(), "echo", "x"))).contains("rule=writes-file tier=ask");
        // a relative name is opened in the JVM's directory
        assertThat(line(jvm.run(box, "", "pb-to", "out.txt", "echo", "x"))).contains("writes to " + box.work.resolve("out.txt"));
        assertThat(box.work.resolve("out.txt")).doesNotExist();
        Path key = Files.createDirectories(box.home.resolve(".ssh")).resolve("id_ed25519");
        Files.writeString(key, "secret");
        assertThat(line(jvm.run(box, "", "pb-from", key.toString(), "cat"))).contains("rule=sensitive-path tier=ask");
        // discarded output is no file anybody reads
        assertThat(line(jvm.run(box, "", "pb-discard", "echo", "x"))).isEqualTo("RAN exit=0 out=");
        assertThat(marker).doesNotExist();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("jvms")
    void aDirectoryThatIsNotThereStartsNothing(AgentJvm jvm) throws Exception {
        // the JDK does not change directory for a child that inherits the JVM's: with that
        // directory deleted, the child would start there, and the judge cannot look at it
        Path gone = Files.createDirectories(box.root.resolve("gone"));
        String out = line(jvm.runIn(gone, box, box.env, "", List.of(), "cwd-gone", "touch", marker.toString()));
        assertThat(out).startsWith("REFUSED class=io.shellgate.interceptor.ShellgateRefusedException rule=no-directory tier=error")
                .contains("working directory " + gone + " does not exist");
        assertThat(line(jvm.runIn(Files.createDirectories(gone), box, box.env, "", List.of(), "cwd-gone", "echo", "hi")))
                .contains("rule=no-directory");
        // a builder's directory that is not there
        assertThat(line(jvm.run(box, "", "pb-in", box.root.resolve("nowhere").toString(), "TZ=UTC", "touch", marker.toString())))
                .contains("rule=no-directory tier=error").contains("the directory " + box.root.resolve("nowhere"));
        assertThat(marker).doesNotExist();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("jvms")
    void aShellScriptIsJudgedWithTheChildsEnvironment(AgentJvm jvm) throws Exception {
        Path evil = planted("ls");
        assertThat(line(jvm.run(box, "", "pb-in", box.work.toString(), "TZ=UTC", "bash", "-c", "echo \"$TZ\"")))
                .isEqualTo("RAN exit=0 out=UTC");
        // the child's PATH finds a planted ls first: the script's ls is not the trusted one
        assertThat(line(jvm.run(box, "", "pb-in", box.work.toString(), "PATH=" + evil + ":/usr/bin:/bin", "bash", "-c", "ls")))
                .contains("rule=untrusted-program tier=ask");
        assertThat(marker).doesNotExist();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("jvms")
    void theProgramIsResolvedInTheJvmsOwnPathAsTheJdkDoes(AgentJvm jvm) throws Exception {
        Path evil = planted("ls");
        Map<String, String> env = new HashMap<>(box.env);
        env.put("PATH", evil + ":/usr/bin:/bin");
        // the child's environment says /usr/bin, but the JDK looks in the JVM's PATH and would run the planted ls
        Processes.Result r = jvm.run(box, env, "", List.of(), "pb-in", box.work.toString(), "PATH=/usr/bin:/bin", "ls");
        assertThat(line(r)).contains("rule=untrusted-program tier=ask");
        assertThat(marker).doesNotExist();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("jvms")
    void windowsShellScriptsAreJudgedInTheirDialectAndTheShellThatRunsThem(AgentJvm jvm) throws Exception {
        String encoded = Base64.getEncoder().encodeToString("Remove-Item -Recurse C:\\".getBytes(StandardCharsets.UTF_16LE));
        // read-only scripts pass the gate (and then fail to start: neither shell is installed here)
        for (List<String> argv : List.of(List.of("cmd", "/c", "dir"), List.of("pwsh", "-NoProfile", "-Command", "Get-ChildItem"))) {
            String out = line(jvm.run(box, "", Stream.concat(Stream.of("pb"), argv.stream()).toArray(String[]::new)));
            assertThat(out).as(argv.toString()).doesNotContain("ShellgateRefusedException")
                    .contains("Cannot run program \"" + argv.get(0) + "\"");
        }
        // an encoded script is decoded and judged as PowerShell
        assertThat(line(jvm.run(box, "", "pb", "powershell", "-EncodedCommand", encoded))).contains("tier=deny");
        assertThat(line(jvm.run(box, "", "pb", "cmd", "/c", "rd", "/s", "/q", "C:\\"))).contains("rule=cmd-remove-critical tier=deny");
        // a pwsh planted on the JVM's PATH is what would run: a harmless script does not make it harmless
        Map<String, String> env = new HashMap<>(box.env);
        env.put("PATH", planted("pwsh") + ":/usr/bin:/bin");
        String out = line(jvm.run(box, env, "", List.of(), "pb", "pwsh", "-NoProfile", "-Command", "Get-ChildItem"));
        assertThat(out).contains("rule=untrusted-program tier=ask");
        assertThat(marker).doesNotExist();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("jvms")
    void aPipelineWithARefusedStageStartsNoStageAtAll(AgentJvm jvm) throws Exception {
        Files.createDirectories(box.home.resolve(".config/shellgate"));
        Files.writeString(box.home.resolve(".config/shellgate/policy.toml"), TOUCH_IS_READ_ONLY);
        assertThat(line(jvm.run(box, "", "pipeline", "touch", marker.toString(), "|", "rm", "-rf", "/")))
                .contains("rule=rm-recursive-critical tier=deny").contains("no stage was started");
        assertThat(marker).doesNotExist();
        assertThat(line(jvm.run(box, "", "pipeline", "printf", "b\\na\\n", "|", "sort", "|", "head", "-1")))
                .isEqualTo("RAN exit=0 out=a");
        // the stage that was refused in the pipeline runs on its own: the policy took effect
        assertThat(line(jvm.run(box, "", "pb", "touch", marker.toString()))).isEqualTo("RAN exit=0 out=");
        assertThat(marker).exists();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("jvms")
    void thirtyTwoThreadsGetTheRightVerdictEveryTime(AgentJvm jvm) throws Exception {
        // on a loaded machine 32 parses at once can pass the default 250 ms budget (which asks): this
        // test is about concurrency, so the budget is generous
        Files.createDirectories(box.home.resolve(".config/shellgate"));
        Files.writeString(box.home.resolve(".config/shellgate/policy.toml"), "[settings]\ntime-budget-ms = 20000\n");
        assertThat(line(jvm.run(box, "", "threads", "32", "4", marker.toString()))).isEqualTo("THREADS good=384 bad=0");
        assertThat(marker).doesNotExist();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("judges")
    void aBrokenPolicyRefusesEverythingWithAClearMessage(AgentJvm jvm) throws Exception {
        Path policy = Files.createDirectories(box.home.resolve(".config/shellgate")).resolve("policy.toml");
        Files.writeString(policy, "[[rule]\nid = \n");
        String out = line(jvm.run(box, "", "pb", "echo", "hi"));
        assertThat(out).contains("rule=policy-error").contains("policy.toml");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("judges")
    void auditModeRunsWhatItWouldRefuseAndSaysSo(AgentJvm jvm) throws Exception {
        Processes.Result r = jvm.run(box, "mode=audit", "pb", "touch", marker.toString());
        assertThat(line(r)).isEqualTo("RAN exit=0 out=");
        assertThat(r.err()).contains("shellgate: audit: would refuse (not-read-only)");
        assertThat(marker).exists();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("judges")
    void aChildWithoutHomeIsStillJudgedByTheUsersPolicy(AgentJvm jvm) throws Exception {
        // Runtime.exec with an environment of its own leaves HOME out: the policy is the JVM user's all the same
        Files.createDirectories(box.home.resolve(".config/shellgate"));
        Files.writeString(box.home.resolve(".config/shellgate/policy.toml"), Sandbox.DENY_MAKE_DEPLOY);
        assertThat(line(jvm.run(box, "", "exec-env-dir", "make deploy", box.work.toString(), "TZ=UTC")))
                .contains("rule=no-make-deploy tier=deny");
        // and the decision is in the user's audit log
        assertThat(box.shellgate("log", "--json").out().lines().toList().getLast()).contains("\"cmd\":\"TZ=UTC ")
                .contains("make deploy\"").contains("\"entry\":\"javaagent\"");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("judges")
    void aChildsHomeWithAnotherUserPolicyAsksAndNeverGetsThatPolicysAllow(AgentJvm jvm) throws Exception {
        Path otherHome = box.root.resolve("other-home");
        Files.createDirectories(otherHome.resolve(".config/shellgate"));
        Files.writeString(otherHome.resolve(".config/shellgate/policy.toml"), TOUCH_IS_READ_ONLY);
        String out = line(jvm.run(box, "", "pb-in", box.work.toString(), "HOME=" + otherHome, "touch", marker.toString()));
        assertThat(out).contains("rule=dangerous-variable tier=ask").contains("sets HOME");
        assertThat(marker).doesNotExist();
    }

    /** The javaagent's records in the audit log, once there are {@code count} (the server logs reused starts a little later). */
    private List<String> agentRecords(int count) throws Exception {
        List<String> records = List.of();
        for (int i = 0; i < 100 && records.size() < count; i++) {
            if (i > 0) {
                Thread.sleep(100);
            }
            records = box.shellgate("log", "--json").out().lines().filter(l -> l.contains("\"entry\":\"javaagent\"")).toList();
        }
        return records;
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("jvms")
    void anAllowIsReusedOnlyWhileTheFilesItRestsOnAreAsTheyWere(AgentJvm jvm) throws Exception {
        // true in a directory the policy trusts, a link to the system's
        Path bin = Files.createDirectories(box.root.resolve("bin"));
        Path elsewhere = Files.createDirectories(box.root.resolve("elsewhere"));
        Path evil = Files.writeString(elsewhere.resolve("true"), "#!/bin/sh\ntouch " + marker + "\n");
        Files.setPosixFilePermissions(evil, PosixFilePermissions.fromString("rwxr-xr-x"));
        Path program = Files.createSymbolicLink(bin.resolve("true"), Path.of("/bin/true").toRealPath());
        Files.createDirectories(box.home.resolve(".config/shellgate"));
        Files.writeString(box.home.resolve(".config/shellgate/policy.toml"),
                "[settings]\ntrusted-dirs = [\"" + bin + "\"]\nuntrusted-dirs = [\"" + elsewhere + "\"]\n");
        // no allow is reused on the ground of a policy file written in the last two seconds
        Thread.sleep(2100);
        Process tool = jvm.start(box, "each-line", program.toString());
        try (BufferedReader out = new BufferedReader(new InputStreamReader(tool.getInputStream(), StandardCharsets.UTF_8))) {
            assertThat(out.readLine()).isEqualTo("RAN exit=0 out=");
            tool.getOutputStream().write('\n');
            tool.getOutputStream().flush();
            assertThat(out.readLine()).isEqualTo("RAN exit=0 out=");
            // the link now leads to a program in a directory that is not trusted: the same request, judged again
            Files.delete(program);
            Files.createSymbolicLink(program, evil);
            tool.getOutputStream().write('\n');
            tool.getOutputStream().close();
            assertThat(out.readLine()).startsWith("REFUSED class=io.shellgate.interceptor.ShellgateRefusedException")
                    .contains("tier=ask").contains(elsewhere.toString());
            assertThat(tool.waitFor(60, TimeUnit.SECONDS)).isTrue();
            AgentTransformationErrors.check(new String(tool.getErrorStream().readAllBytes(), StandardCharsets.UTF_8));
        } finally {
            tool.destroyForcibly();
        }
        assertThat(marker).doesNotExist();
        // in the order of the starts (a reused start's record is written when the agent sends it, within 100 ms)
        List<String> records = agentRecords(3).stream().sorted().toList();
        assertThat(records).hasSize(3);
        assertThat(records.get(0)).contains("\"run\":true").contains("\"message\":\"read-only\"");
        // the second start reused the first's allow
        assertThat(records.get(1)).contains("\"run\":true")
                .contains("\"message\":\"read-only (started on an allow javaagent reused, after asking its file questions again)\"");
        assertThat(records.get(2)).contains("\"run\":false").contains("\"tier\":\"ask\"");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("jvms")
    void aBuilderChangedAfterItsAllowWasReusedIsJudgedAgain(AgentJvm jvm) throws Exception {
        // the tool changes the builder it started twice: its environment (the same map object
        // every time), then where its output goes; neither may ride on the allow already given
        Path lib = Files.writeString(box.root.resolve("evil.so"), "x");
        Path rc = box.home.resolve(".bashrc");
        List<String> lines = jvm.run(box, "", "one-builder", lib.toString(), rc.toString(), "echo", "hi").out().lines().toList();
        assertThat(lines).hasSize(5);
        assertThat(lines.get(0)).isEqualTo("RAN exit=0 out=hi");
        assertThat(lines.get(1)).isEqualTo("RAN exit=0 out=hi");
        assertThat(lines.get(2)).contains("rule=dangerous-variable tier=ask").contains("LD_PRELOAD");
        assertThat(lines.get(3)).isEqualTo("RAN exit=0 out=hi");
        assertThat(lines.get(4)).startsWith("REFUSED class=io.shellgate.interceptor.ShellgateRefusedException").contains(rc.toString());
        assertThat(rc).doesNotExist();
        List<String> records = agentRecords(5);
        assertThat(records).hasSize(5);
        // the second and the fourth reused the first's allow; the changed ones were judged
        assertThat(records.stream().filter(r -> r.contains("reused")).count()).isEqualTo(2);
        assertThat(records.stream().filter(r -> r.contains("\"run\":false")).count()).isEqualTo(2);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("judges")
    void everyStartIsLoggedWhetherItsAllowWasReusedOrNot(AgentJvm jvm) throws Exception {
        assertThat(line(jvm.run(box, "", "spawn-true", "300", "0"))).startsWith("SPAWN_US ");
        List<String> records = agentRecords(300);
        assertThat(records).hasSize(300).allSatisfy(r -> assertThat(r).contains("\"cmd\":\"/bin/true\"").contains("\"run\":true"));
        // all but the first start reused its allow
        assertThat(records.stream().filter(r -> r.contains("reused")).count()).isEqualTo(299);
        // each start has its own time
        assertThat(records.stream().map(r -> r.substring(0, r.indexOf(','))).distinct().count()).isGreaterThan(100);
    }

    @Test
    void theFilesTheInProcessJudgeKeepsOpenAreClosedOnExec() throws Exception {
        // every inherited descriptor costs every start time in the JDK's spawn helper; these never reach a child
        List<String> files = line(AgentJvm.of(25, "in-process").run(box, "", "open-files")).lines()
                .filter(l -> l.startsWith("FILE ")).toList();
        List<String> ours = files.stream().filter(l -> l.contains("shellgate-agent.jar") || l.contains("shellgate-judge.jar")
                || l.contains("/audit.")).toList();
        assertThat(ours).as(files.toString()).hasSizeGreaterThanOrEqualTo(4).allMatch(l -> l.endsWith(" cloexec=true"));
    }

    @Test
    void withoutAServerOrALauncherEverythingIsRefused() throws Exception {
        AgentJvm jvm = AgentJvm.of(17, "server");
        String out = line(jvm.run(box, "launcher=" + box.root.resolve("no-such-shellgate"), "pb", "echo", "hi"));
        assertThat(out).contains("rule=judge-error tier=error").contains("no judge server answered");
    }

    @Test
    void aRunDirectoryOthersMayWriteIsNotBelievedByTheAgent() throws Exception {
        box.startServer();
        // no server started on demand either: only the one there, in a directory others may write
        Files.writeString(box.run.resolve("starting"), (System.currentTimeMillis() / 1000 + 3600) + "\n");
        Files.setPosixFilePermissions(box.run, java.nio.file.attribute.PosixFilePermissions.fromString("rwxrwxrwx"));
        String out = AgentJvm.of(17, "server").run(box, "", "pb", "echo", "hi").out();
        assertThat(out).contains("REFUSED").contains("rule=judge-error").contains("the run directory is not believed")
                .contains(box.run + " is writable by other users (chmod go-w " + box.run + ")");
    }

    @Test
    void aRunDirectoryTooDeepForAUnixSocketStillHasItsServer() throws Exception {
        // a Unix socket's path may be 107 bytes at most: a deeper run directory (a CI checkout's
        // target folder) had no server at all, and every start waited a minute for one, then was refused
        Path deep = box.root.resolve("a-run-directory-deep-enough-that-its-socket-path-is-too-long/".repeat(2) + "run");
        // and one at the edge: a socket path of exactly 107 bytes, which the JDK refuses as well
        Path edge = box.root.resolve("e".repeat(Math.max(1, 107 - box.root.toString().length() - "/".length() - "/run/server.sock".length())))
                .resolve("run");
        assertThat(edge.resolve("server.sock").toString()).hasSize(107);
        Map<String, String> atEdge = new HashMap<>(box.env);
        atEdge.put("SHELLGATE_RUN_DIR", edge.toString());
        assertThat(line(AgentJvm.of(17, "server").run(box, atEdge, "", List.of(), "pb", "echo", "edge")))
                .isEqualTo("RAN exit=0 out=edge");
        assertThat(edge.resolve("server.sockpath")).exists();
        ProcessHandle.of(Long.parseLong(Files.readString(edge.resolve("server.pid")).strip())).ifPresent(ProcessHandle::destroy);
        Map<String, String> env = new HashMap<>(box.env);
        env.put("SHELLGATE_RUN_DIR", deep.toString());
        assertThat(line(AgentJvm.of(17, "server").run(box, env, "", List.of(), "pb", "echo", "deep")))
                .isEqualTo("RAN exit=0 out=deep");
        Path socket = Path.of(Files.readString(deep.resolve("server.sockpath")).strip());
        assertThat(socket.getParent().getParent()).isEqualTo(Path.of("/tmp"));
        assertThat(java.nio.file.Files.getPosixFilePermissions(socket.getParent()))
                .isEqualTo(java.nio.file.attribute.PosixFilePermissions.fromString("rwx------"));
        // the server removes its socket's directory when it stops
        ProcessHandle server = ProcessHandle.of(Long.parseLong(Files.readString(deep.resolve("server.pid")).strip())).orElseThrow();
        server.destroy();
        server.onExit().get(60, TimeUnit.SECONDS);
        assertThat(socket.getParent()).doesNotExist();
        assertThat(deep.resolve("server.sockpath")).doesNotExist();
    }

    @Test
    void theAgentRestartsItsServerFromAnyThreadWithoutJudgingItself() throws Exception {
        // starts reused allows are logged from a thread of the agent's own; when their server is gone,
        // that thread starts a new one, which its own gate must not judge (it refused it, and the
        // starts went unlogged)
        Process first = box.startServer();
        Process tool = AgentJvm.of(17, "server").start(box, "each-line", "echo", "again");
        java.io.BufferedReader out = new java.io.BufferedReader(new java.io.InputStreamReader(tool.getInputStream()));
        assertThat(out.readLine()).isEqualTo("RAN exit=0 out=again");
        tool.getOutputStream().write('\n');
        tool.getOutputStream().flush();
        assertThat(out.readLine()).isEqualTo("RAN exit=0 out=again");
        awaitLogged("echo again", 2);
        // killed, its files left: the next start is reused as before, and its notice needs a new server
        first.destroyForcibly();
        assertThat(first.waitFor(30, TimeUnit.SECONDS)).isTrue();
        tool.getOutputStream().write('\n');
        tool.getOutputStream().flush();
        assertThat(out.readLine()).isEqualTo("RAN exit=0 out=again");
        awaitLogged("echo again", 3);
        tool.getOutputStream().close();
        assertThat(tool.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(new String(tool.getErrorStream().readAllBytes(), StandardCharsets.UTF_8)).doesNotContain("could not be sent");
    }

    /** Waits until the audit log holds {@code count} records of {@code cmd} (the agent logs reused starts within 100 ms). */
    private void awaitLogged(String cmd, int count) throws Exception {
        for (int i = 0; i < 600; i++) {
            long n = box.shellgate("log", "--json").out().lines().filter(l -> l.contains("\"cmd\":\"") && l.contains(cmd)).count();
            if (n >= count) {
                return;
            }
            Thread.sleep(100);
        }
        throw new AssertionError("the audit log did not get " + count + " records of " + cmd + ":\n"
                + box.shellgate("log", "--json").out());
    }

    @Test
    void theServerTheAgentStartsIsNotGatedByItself() throws Exception {
        AgentJvm jvm = AgentJvm.of(17, "server");
        assertThat(line(jvm.run(box, "", "pb", "echo", "first"))).isEqualTo("RAN exit=0 out=first");
        ProcessHandle server = box.awaitOnDemandServer();
        assertThat(server.isAlive()).isTrue();
        // the environment the server got: this agent is not in it
        String environ = Files.readString(Path.of("/proc/" + server.pid() + "/environ"), StandardCharsets.ISO_8859_1);
        assertThat(environ).doesNotContain("javaagent");
    }

    @Test
    void aConnectionTheServerClosedWhileIdleIsReplacedNotARefusal() throws Exception {
        // the server closes a Unix socket connection after 30 idle seconds; here after 2
        Map<String, String> env = new HashMap<>(box.env);
        env.put("SHELLGATE_SERVER_CONNECTION_IDLE_SECONDS", "2");
        Processes.Result r = AgentJvm.of(17, "server").run(box, env, "", List.of(), "again-after", "6", "echo", "still");
        assertThat(line(r)).isEqualTo("RAN exit=0 out=still\nRAN exit=0 out=still");
    }

    /**
     * A JVM running {@code AgentTarget attach-then MARKER} without an agent, stopped at READY (it
     * has started a process already, so the JDK's process classes are loaded); {@link #proceed}
     * lets it try touch and echo.
     */
    private final class Unattached implements AutoCloseable {
        final Process process;
        final BufferedReader out;

        Unattached(AgentJvm jvm, String... jvmFlags) throws Exception {
            List<String> command = new java.util.ArrayList<>(List.of(jvm.java().resolve("bin/java").toString(),
                    "-XX:+EnableDynamicAgentLoading"));
            command.addAll(List.of(jvmFlags));
            command.addAll(List.of("-cp", AgentJvm.targetClasses().toString(), "AgentTarget", "attach-then", marker.toString()));
            process = Processes.start(command, box.env, box.work);
            out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
            assertThat(out.readLine()).isEqualTo("RAN exit=0 out=before");
            assertThat(out.readLine()).isEqualTo("READY");
        }

        long pid() {
            return process.pid();
        }

        /** Lets it start touch MARKER and echo after; returns what it printed for the two. */
        List<String> proceed() throws Exception {
            process.getOutputStream().write('\n');
            process.getOutputStream().close();
            return List.of(String.valueOf(out.readLine()), String.valueOf(out.readLine()));
        }

        /** What it printed on standard error, after it ended. */
        String err() throws Exception {
            assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();
            String err = new String(process.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
            AgentTransformationErrors.check(err);
            return err;
        }

        @Override
        public void close() throws Exception {
            process.destroyForcibly();
            out.close();
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("jvms")
    void anAgentAttachedToARunningJvmGatesItsLaterStarts(AgentJvm jvm) throws Exception {
        try (Unattached target = new Unattached(jvm)) {
            // ProcessBuilder and ProcessImpl are loaded already: the agent must change them in place
            VirtualMachine vm = VirtualMachine.attach(Long.toString(target.pid()));
            try {
                vm.loadAgent(AgentJvm.agentJar().toString(), "judge=" + jvm.judge() + ",launcher=" + Processes.launcher());
            } finally {
                vm.detach();
            }
            List<String> after = target.proceed();
            assertThat(after.get(0)).contains("rule=not-read-only tier=ask");
            assertThat(after.get(1)).isEqualTo("RAN exit=0 out=after");
            target.err();
        }
        assertThat(marker).doesNotExist();
    }

    private Processes.Result attach(String... args) throws Exception {
        Map<String, String> env = new HashMap<>(box.env);
        env.put("SHELLGATE_AGENT_JAR", AgentJvm.agentJar().toString());
        List<String> command = new java.util.ArrayList<>(List.of(Processes.launcher().toString(), "attach"));
        command.addAll(List.of(args));
        return Processes.run(command, env, (String) null, box.work);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("jvms")
    void shellgateAttachGatesARunningJvmOnceAndSaysSo(AgentJvm jvm) throws Exception {
        try (Unattached target = new Unattached(jvm)) {
            String pid = Long.toString(target.pid());
            Processes.Result first = attach("--options=judge=" + jvm.judge(), pid);
            assertThat(first.code()).as(first.toString()).isZero();
            assertThat(first.out()).contains("JVM " + pid + " (Java " + jvm.feature() + ") carries shellgate's agent (mode=enforce)");
            // a second agent would judge every process twice: the JVM keeps the first
            Processes.Result again = attach(pid);
            assertThat(again.code()).as(again.toString()).isZero();
            assertThat(again.out()).contains("carries shellgate's agent (mode=enforce), and said so before this attach too");
            List<String> after = target.proceed();
            assertThat(after.get(0)).contains("rule=not-read-only tier=ask");
            assertThat(after.get(1)).isEqualTo("RAN exit=0 out=after");
            assertThat(target.err()).contains("shellgate agent: already installed in this JVM (mode=enforce); the second one does nothing");
        }
        assertThat(marker).doesNotExist();
    }

    @Test
    void aJvmThatOnlyClaimsToCarryTheAgentGetsIt() throws Exception {
        // any code in the JVM can set the property the agent sets: attach loads the agent anyway
        try (Unattached target = new Unattached(AgentJvm.of(17, "server"), "-Dshellgate.agent=mode=enforce")) {
            Processes.Result r = attach(Long.toString(target.pid()));
            assertThat(r.code()).as(r.toString()).isZero();
            assertThat(target.proceed().get(0)).contains("rule=not-read-only tier=ask");
            assertThat(target.err()).doesNotContain("already installed");
        }
        assertThat(marker).doesNotExist();
    }

    @Test
    void shellgateAttachRefusesWhatCannotWorkAndLeavesTheJvmAsItWas() throws Exception {
        AgentJvm jvm = AgentJvm.of(17, "server");
        try (Unattached target = new Unattached(jvm)) {
            String pid = Long.toString(target.pid());
            Processes.Result help = attach("--options=help", pid);
            assertThat(help.code()).as(help.toString()).isEqualTo(2);
            assertThat(help.err()).contains("not attached to JVM " + pid + " (Java 17): help prints the options and stops the JVM");
            Processes.Result inProcess = attach("--options=judge=in-process", pid);
            assertThat(inProcess.code()).as(inProcess.toString()).isEqualTo(2);
            assertThat(inProcess.err()).contains("judge=in-process needs Java 25 or newer, and the JVM runs Java 17");
            Processes.Result unknown = attach("--options=mode=audit,colour=red", pid);
            assertThat(unknown.code()).as(unknown.toString()).isEqualTo(2);
            assertThat(unknown.err()).contains("unknown option 'colour=red'");
            Processes.Result noJar = attach("--javaagent=" + box.root.resolve("missing.jar"), pid);
            assertThat(noJar.code()).as(noJar.toString()).isEqualTo(2);
            assertThat(noJar.err()).contains("no agent jar at " + box.root.resolve("missing.jar"));
            // the agent's own guard, for those who attach it without shellgate attach: help does
            // not stop a running JVM
            VirtualMachine vm = VirtualMachine.attach(pid);
            try {
                org.assertj.core.api.Assertions.assertThatThrownBy(() -> vm.loadAgent(AgentJvm.agentJar().toString(), "help"))
                        .isInstanceOf(com.sun.tools.attach.AgentInitializationException.class);
            } finally {
                vm.detach();
            }
            // nothing was installed and the JVM still runs: touch starts unjudged
            assertThat(target.proceed()).containsExactly("RAN exit=0 out=", "RAN exit=0 out=after");
            assertThat(target.err()).contains("help is for -javaagent, not for an agent attached to a running JVM");
        }
        assertThat(marker).exists();
    }

    @Test
    void shellgateAttachNamesAProcessItCannotAttachTo() throws Exception {
        Process sleeper = new ProcessBuilder("sleep", "60").start();
        try {
            Processes.Result notJava = attach(Long.toString(sleeper.pid()));
            assertThat(notJava.code()).as(notJava.toString()).isEqualTo(4);
            assertThat(notJava.err()).contains("cannot attach to process " + sleeper.pid())
                    .contains("it must be a running JVM of this user that allows attaching");
        } finally {
            sleeper.destroyForcibly();
        }
        Processes.Result gone = attach("2147483646");
        assertThat(gone.code()).as(gone.toString()).isEqualTo(4);
        assertThat(gone.err()).contains("cannot attach to process 2147483646");
        Processes.Result notANumber = attach("my-app");
        assertThat(notANumber.code()).as(notANumber.toString()).isEqualTo(2);
        assertThat(notANumber.err()).contains("'my-app' is not a long").contains("shellgate attach --help");
        Processes.Result usage = attach("--help");
        assertThat(usage.code()).as(usage.toString()).isZero();
        assertThat(usage.out()).contains("Usage: shellgate attach").contains("--options=OPTIONS").contains("Java 17 or newer");
    }

    @Test
    void anAgentGivenTwiceInstallsOnceAndASecondMayOnlyTurnAuditIntoEnforce() throws Exception {
        AgentJvm jvm = AgentJvm.of(25, "in-process");
        // the JVM flags come before run's own agent: here the first enforces, the second audits
        Processes.Result r = jvm.run(box, box.env, "mode=audit", List.of("-javaagent:" + AgentJvm.agentJar() + "=judge=in-process"),
                "pb", "touch", marker.toString());
        assertThat(r.out()).contains("rule=not-read-only tier=ask");
        assertThat(r.err()).contains("shellgate agent: already installed in this JVM (mode=enforce); the second one does nothing");
        assertThat(marker).doesNotExist();
        // the other way round (an audit agent first, as JAVA_TOOL_OPTIONS would put it): enforced
        r = jvm.run(box, box.env, "", List.of("-javaagent:" + AgentJvm.agentJar() + "=judge=in-process,mode=audit"),
                "pb", "touch", marker.toString());
        assertThat(r.out()).contains("rule=not-read-only tier=ask");
        assertThat(r.err()).contains("shellgate agent: already installed in this JVM (mode=audit); the second one turns it"
                + " to mode=enforce");
        assertThat(marker).doesNotExist();
    }

    @Test
    void shellgateAttachTurnsAnAuditingAgentIntoAnEnforcingOne() throws Exception {
        AgentJvm jvm = AgentJvm.of(17, "server");
        try (Unattached target = new Unattached(jvm, "-javaagent:" + AgentJvm.agentJar() + "=mode=audit,launcher="
                + Processes.launcher())) {
            Processes.Result r = attach(Long.toString(target.pid()));
            assertThat(r.code()).as(r.toString()).isZero();
            assertThat(r.out()).contains("carried shellgate's agent already (mode=audit), now mode=enforce");
            assertThat(target.proceed().get(0)).contains("rule=not-read-only tier=ask");
        }
        assertThat(marker).doesNotExist();
    }

    @Test
    void aJvmThatStartsNoProcessNeverLoadsTheJudge() throws Exception {
        // the file guard on the gate's own files goes in at start, with the bytecode library's class
        // reader and writer only: its advice and type descriptions wait for the first process start
        for (AgentJvm jvm : jvms().toList()) {
            Processes.Result r = jvm.run(box, box.env, "", List.of("-verbose:class"), "nothing");
            assertThat(r.out()).contains("NOTHING").contains("io.shellgate.interceptor.internal.FileInstrumenter")
                    .contains("shaded.bytebuddy.jar.asm.ClassWriter").doesNotContain("shaded.bytebuddy.asm.Advice")
                    .doesNotContain("shaded.bytebuddy.pool.TypePool").doesNotContain("shellgate.judge");
        }
    }

    @Test
    void helpPrintsTheOptionsAndABadOptionStopsTheJvm() throws Exception {
        Path java = LauncherScriptTest.jdk("17").resolve("bin/java");
        Processes.Result help = Processes.run(List.of(java.toString(), "-javaagent:" + AgentJvm.agentJar() + "=help", "-version"),
                box.env, (String) null, box.work);
        assertThat(help.code()).isZero();
        assertThat(help.err()).contains("mode=audit").contains("policy=FILE").contains("SHELLGATE_AGENT_OPTIONS");
        Processes.Result bad = Processes.run(List.of(java.toString(), "-javaagent:" + AgentJvm.agentJar() + "=mode=lenient",
                "-version"), box.env, (String) null, box.work);
        assertThat(bad.code()).isNotZero();
        assertThat(bad.err()).contains("shellgate agent: mode=lenient: use mode=enforce (the default) or mode=audit");
    }

    /** A program NAME in a directory of its own under the temporary directory, which creates the marker. */
    private Path planted(String name) throws Exception {
        Path evil = Files.createDirectories(box.root.resolve("planted"));
        Path program = evil.resolve(name);
        Files.writeString(program, "#!/bin/sh\ntouch " + marker + "\n");
        Files.setPosixFilePermissions(program, PosixFilePermissions.fromString("rwxr-xr-x"));
        return evil;
    }
}
