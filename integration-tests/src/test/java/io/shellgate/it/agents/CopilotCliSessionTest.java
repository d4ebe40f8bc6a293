package io.shellgate.it.agents;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.shellgate.it.TestTerminal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * GitHub Copilot CLI beyond one command: a session of two commands (one runs, one is refused) both ways in, and its
 * interactive mode in a real terminal, where shellgate's ask (from its {@code preToolUse} hook) brings up Copilot's own
 * "Hook permission request" although {@code --allow-all-tools} would have run the command without asking, and the
 * person's answer there decides.
 */
@Execution(ExecutionMode.CONCURRENT)
class CopilotCliSessionTest {

    private static final String COMMAND = "touch made-by-the-agent";

    enum Way { WRAP, HOOK }

    @BeforeAll
    static void agents() throws Exception {
        Agents.installOrSkip();
    }

    @ParameterizedTest
    @EnumSource(Way.class)
    void twoCommandsInOneSessionTheFirstRunsTheSecondIsRefused(Way way) throws Exception {
        // under wrap, Copilot is started through a bash-script shim: it starts, and its commands are still judged
        Path root = Agents.newRunFolder("copilot-session-" + way);
        Path work = Files.createDirectories(root.resolve("work"));
        Files.writeString(work.resolve("listed-by-the-agent.txt"), "x\n");
        AgentRun run = AgentRun.of(Agent.COPILOT_CLI, "ls -la\n" + COMMAND);
        for (Map.Entry<String, String> e : Agents.shellgateEnv(root).entrySet()) {
            run = run.withEnv(e.getKey(), e.getValue());
        }
        Path launcher = Path.of(System.getProperty("shellgate.launcher")).toAbsolutePath().normalize();
        if (way == Way.WRAP) {
            // started through a shim, as a version manager installs one: a bash script of the agent's name that execs it
            Path shim = Files.createDirectories(root.resolve("shims")).resolve("copilot");
            Files.writeString(shim, "#!/usr/bin/env bash\nset -e\nexec \"$@\"\n");
            Files.setPosixFilePermissions(shim, java.nio.file.attribute.PosixFilePermissions.fromString("rwxr-xr-x"));
            run = run.withPrefix(List.of(launcher.toString(), "wrap", "--", shim.toString()));
        } else {
            run = run.withHook(hook(launcher));
        }
        AgentResult r = Agents.run(run, root);
        assertThat(r.exitCode()).as(r.toString()).isZero();
        assertThat(r.toolResults()).as(r.toString()).hasSize(2);
        assertThat(r.toolResults().get(0)).contains("listed-by-the-agent.txt");
        assertThat(r.toolResults().get(1)).contains("shellgate").contains("not-read-only");
        assertThat(work.resolve("made-by-the-agent")).doesNotExist();
        List<JsonNode> audit = audit(root);
        assertThat(audit).as("the audit log").anySatisfy(d -> {
            assertThat(d.path("cmd").asText()).isEqualTo("ls -la");
            assertThat(d.path("run").asBoolean()).isTrue();
        });
        assertThat(audit).anySatisfy(d -> {
            assertThat(d.path("cmd").asText()).isEqualTo(COMMAND);
            assertThat(d.path("run").asBoolean()).isFalse();
        });
        assertThat(r.tripwire()).isEmpty();
    }

    @Test
    void anAskBringsUpCopilotsPermissionPromptAndYesRunsTheCommand() throws Exception {
        Path root = Agents.newRunFolder("copilot-dialog-yes");
        try (ChatCompletionsStub stub = new ChatCompletionsStub(COMMAND, CopilotCliSetup.TOOL); Tripwire tripwire = new Tripwire();
                TestTerminal terminal = copilot(root, stub, tripwire)) {
            String prompt = terminal.awaitOnScreen("Do you want to allow this tool call?");
            // shellgate's reason is in Copilot's own prompt (the screen's words without their spaces)
            assertThat(prompt).contains("Hookpermissionrequest").contains("shellgateask(not-read-only)")
                    .contains("touchisnotontheread-onlylist");
            assertThat(root.resolve("work/made-by-the-agent")).doesNotExist();
            terminal.type("\r");
            awaitToolResult(stub);
            assertThat(root.resolve("work/made-by-the-agent")).exists();
        } finally {
            Agents.stopServer(root);
        }
    }

    @Test
    void noInCopilotsPermissionPromptKeepsTheCommandFromRunning() throws Exception {
        Path root = Agents.newRunFolder("copilot-dialog-no");
        try (ChatCompletionsStub stub = new ChatCompletionsStub(COMMAND, CopilotCliSetup.TOOL); Tripwire tripwire = new Tripwire();
                TestTerminal terminal = copilot(root, stub, tripwire)) {
            terminal.awaitOnScreen("Do you want to allow this tool call?");
            terminal.type("\u001b");
            awaitToolResult(stub);
            assertThat(stub.toolResults()).singleElement().asString().contains("Denied by user")
                    .contains("shellgate ask (not-read-only)");
            assertThat(root.resolve("work/made-by-the-agent")).doesNotExist();
            assertThat(audit(root)).filteredOn(n -> n.path("cmd").asText().equals(COMMAND)).isNotEmpty()
                    .noneSatisfy(n -> assertThat(n.path("run").asBoolean(false)).isTrue());
        } finally {
            Agents.stopServer(root);
        }
    }

    /** The hook as shellgate setup writes it: shellgate-hook where the build made it, else the launcher's relay. */
    private static String hook(Path launcher) {
        Path client = launcher.resolveSibling("shellgate-hook");
        return Files.isExecutable(client) ? Hooks.word(client.toString()) + " copilot-cli"
                : Hooks.word(launcher.toString()) + " hook copilot-cli";
    }

    /**
     * Copilot CLI's interactive mode in a terminal of 120 by 40, told to run {@link #COMMAND}, with shellgate's hook in
     * {@code ~/.copilot/hooks/shellgate.json} and every tool allowed by its own settings; its folder-trust question is
     * answered on the screen first.
     */
    private static TestTerminal copilot(Path root, ChatCompletionsStub stub, Tripwire tripwire) throws Exception {
        Path home = Files.createDirectories(root.resolve("home"));
        Path work = Files.createDirectories(root.resolve("work"));
        Path launcher = Path.of(System.getProperty("shellgate.launcher")).toAbsolutePath().normalize();
        ObjectNode file = StubModel.object().put("version", 1);
        file.putObject("hooks").putArray("preToolUse").addObject().put("type", "command").put("bash", hook(launcher))
                .put("timeoutSec", 60);
        Files.createDirectories(home.resolve(".copilot/hooks"));
        Files.writeString(home.resolve(".copilot/hooks/shellgate.json"), file.toPrettyString());
        Map<String, String> own = new HashMap<>(new CopilotCliSetup().env(stub));
        Map<String, String> env = Agents.environment(home, tripwire, own, Agents.shellgateEnv(root));
        env.put("TERM", "xterm-256color");
        List<String> argv = new ArrayList<>(List.of(Agents.install().resolve("node_modules/.bin/copilot").toString(), "-i",
                "Run this shell command and tell me what it printed: " + COMMAND, "--allow-all-tools", "--no-auto-update",
                "--disable-client-telemetry"));
        TestTerminal terminal = TestTerminal.run(argv, env, work, 120, 40);
        terminal.awaitOnScreen("Do you trust the files in this folder?");
        terminal.type("\r");
        return terminal;
    }

    private static List<JsonNode> audit(Path root) throws java.io.IOException {
        Path log = root.resolve("state/audit.jsonl");
        List<JsonNode> out = new ArrayList<>();
        if (Files.exists(log)) {
            for (String line : Files.readAllLines(log)) {
                out.add(StubModel.JSON.readTree(line));
            }
        }
        return out;
    }

    /** Waits until the model has been sent the tool's result (the prompt was answered and the call ended). */
    private static void awaitToolResult(ChatCompletionsStub stub) throws InterruptedException {
        for (int i = 0; i < 1800 && stub.toolResults().isEmpty(); i++) {
            Thread.sleep(100);
        }
        assertThat(stub.toolResults()).as("the tool's result reached the model").isNotEmpty();
    }
}
