package io.shellgate.it.agents;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.shellgate.it.TestTerminal;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;

/**
 * Claude Code in its terminal interface, in its default permission mode, with shellgate as its hook: a command
 * shellgate asks about runs without Claude Code's dialog when the user's own {@code Bash(...)} allow rule covers it
 * or a remembered shellgate approval does, and the audit log says which; without them the dialog comes (back).
 */
@Execution(ExecutionMode.CONCURRENT)
class ClaudeAllowRulesTest {

    private static final String COMMAND = "touch made-by-the-agent";

    @BeforeAll
    static void agents() throws Exception {
        Agents.installOrSkip();
    }

    @Test
    void theUsersOwnAllowRuleLetsAnAskedCommandRunWithoutTheDialog() throws Exception {
        Path root = Agents.newRunFolder("claude-rule-user");
        try (AnthropicStub stub = new AnthropicStub(COMMAND); Tripwire tripwire = new Tripwire();
                TestTerminal terminal = ClaudeDialogTest.claude(root, stub, tripwire, List.of("Bash(" + COMMAND + ")"),
                        "default")) {
            ClaudeDialogTest.awaitToolResult(stub);
            assertThat(root.resolve("work/made-by-the-agent")).exists();
            assertThat(screen(terminal)).doesNotContain("Doyouwanttoproceed");
            List<JsonNode> made = records(root, 2);
            assertThat(made.get(0).path("step").asText()).isEqualTo("agent");
            assertThat(made.get(0).path("message").asText()).contains("left to the agent's own allow rule Bash(" + COMMAND
                    + ") in " + root.resolve("home/.claude/settings.json").toRealPath());
            assertThat(made.get(1).path("run").asBoolean(false)).as(made.get(1).toString()).isTrue();
        } finally {
            Agents.stopServer(root);
        }
    }

    /**
     * Claude Code offers "Yes, and don't ask again" only in its own dialog, never in the one a hook's ask brings up
     * (there it is Yes or No, in every permission mode). What that choice writes, a rule in the project's
     * .claude/settings.local.json, is honoured the next time: written there, the same command runs without a dialog.
     */
    @Test
    void theHooksDialogHasNoDontAskAgainAndTheRuleThatChoiceWritesIsHonoured() throws Exception {
        Path root = Agents.newRunFolder("claude-rule-local");
        try {
            try (AnthropicStub stub = new AnthropicStub(COMMAND); Tripwire tripwire = new Tripwire();
                    TestTerminal terminal = ClaudeDialogTest.claude(root, stub, tripwire, List.of(), "default")) {
                // the hook's dialog has two choices; Claude Code's own has "don't ask again" as its second of four
                String dialog = terminal.awaitOnScreen("2. No");
                assertThat(dialog).contains("Doyouwanttoproceed?").contains("shellgateask").contains("1.Yes")
                        .doesNotContain("askagain").doesNotContain("alwaysallow");
                terminal.type("\r");
                ClaudeDialogTest.awaitToolResult(stub);
            }
            Files.delete(root.resolve("work/made-by-the-agent"));
            // the form in which Claude Code's "Yes, and don't ask again" writes a command's rule
            Path local = Files.createDirectories(root.resolve("work/.claude")).resolve("settings.local.json");
            Files.writeString(local, "{\n  \"permissions\": {\n    \"allow\": [\n      \"Bash(" + COMMAND + " *)\"\n    ]\n  }\n}\n");
            try (AnthropicStub stub = new AnthropicStub(COMMAND); Tripwire tripwire = new Tripwire();
                    TestTerminal terminal = ClaudeDialogTest.claude(root, stub, tripwire, List.of(), "default")) {
                ClaudeDialogTest.awaitToolResult(stub);
                assertThat(root.resolve("work/made-by-the-agent")).exists();
                assertThat(screen(terminal)).doesNotContain("Doyouwanttoproceed");
            }
            List<JsonNode> made = records(root, 4);
            assertThat(made.get(2).path("message").asText()).contains("left to the agent's own allow rule Bash(" + COMMAND
                    + " *) in " + local.toRealPath());
            // shellgate approvals list shows the rule, read-only, with its file
            Run list = shellgate(root, "approvals", "list");
            assertThat(list.out()).contains("Claude Code's own allow rules").contains("Bash(" + COMMAND + " *)  ("
                    + local.toRealPath() + ")");
        } finally {
            Agents.stopServer(root);
        }
    }

    /**
     * With {@code [review] agent-dialog = true} in the user's policy, a line shellgate asks about gets no decision from
     * the hook, so Claude Code shows its own dialog, with "Yes, and don't ask again". That choice writes a rule into the
     * project's .claude/settings.local.json and the command runs (the audit has the ask handed to the agent and the
     * record that it ran); the same line the next time runs without a dialog, by that rule, which the audit names and
     * shellgate approvals list shows. (Without the setting the dialog is the hook's, Yes or No: see the test above.)
     * The line is {@code make build}: for {@code touch} in the project Claude Code offers a grant for the folder
     * instead of a rule. The run is outside any git repository: Claude Code writes that rule at the repository's root
     * (for a worktree, the main checkout's), which would be this checkout's.
     */
    @Test
    void withAgentDialogOnClaudeCodesOwnDialogRemembersTheAnswerAsARuleTheHookHonours() throws Exception {
        String line = "make build";
        Path runs = Files.createDirectories(Path.of(System.getProperty("java.io.tmpdir"), "shellgate-agent-runs"));
        Path root = Files.createTempDirectory(runs, "claude-own-dialog-");
        try {
            Path policy = Files.createDirectories(root.resolve("home/.config/shellgate")).resolve("policy.toml");
            Files.writeString(policy, "version = 1\n[review]\nagent-dialog = true\n");
            Path work = Files.createDirectories(root.resolve("work"));
            Files.writeString(work.resolve("Makefile"), "build:\n\ttouch made-by-the-agent\n");
            try (AnthropicStub stub = new AnthropicStub(line); Tripwire tripwire = new Tripwire();
                    TestTerminal terminal = ClaudeDialogTest.claude(root, stub, tripwire, List.of(), "default")) {
                String dialog = terminal.awaitOnScreen("Do you want to proceed?");
                assertThat(dialog).contains("askagainfor:makebuild").doesNotContain("shellgateask");
                terminal.type("2");
                ClaudeDialogTest.awaitToolResult(stub);
                assertThat(work.resolve("made-by-the-agent")).exists();
            }
            Path local = work.resolve(".claude/settings.local.json");
            assertThat(local).exists();
            assertThat(Files.readString(local)).contains("Bash(make build");
            List<JsonNode> made = records(root, line, 2);
            assertThat(made.get(0).path("step").asText()).isEqualTo("agent");
            assertThat(made.get(0).get("run").isNull()).as(made.get(0).toString()).isTrue();
            assertThat(made.get(0).path("message").asText()).startsWith("left to the agent's own dialog");
            assertThat(made.get(1).path("run").asBoolean(false)).as(made.get(1).toString()).isTrue();
            assertThat(made.get(1).path("message").asText()).contains("ran after the agent's own dialog");

            Files.delete(work.resolve("made-by-the-agent"));
            try (AnthropicStub stub = new AnthropicStub(line); Tripwire tripwire = new Tripwire();
                    TestTerminal terminal = ClaudeDialogTest.claude(root, stub, tripwire, List.of(), "default")) {
                ClaudeDialogTest.awaitToolResult(stub);
                assertThat(work.resolve("made-by-the-agent")).exists();
                assertThat(screen(terminal)).doesNotContain("Doyouwanttoproceed");
            }
            List<JsonNode> again = records(root, line, 4);
            assertThat(again.get(2).path("message").asText()).contains("left to the agent's own allow rule Bash(make build")
                    .contains(" in " + local.toRealPath());
            assertThat(again.get(3).path("run").asBoolean(false)).isTrue();
            Run list = shellgate(root, "approvals", "list");
            assertThat(list.out()).contains("Claude Code's own allow rules").contains("Bash(make build")
                    .contains(local.toRealPath().toString());
        } finally {
            Agents.stopServer(root);
        }
    }

    @Test
    void anApprovalAddedWithShellgateLetsTheCommandRunAndRevokingItBringsTheDialogBack() throws Exception {
        Path root = Agents.newRunFolder("claude-approval");
        try {
            Files.createDirectories(root.resolve("work"));
            String id;
            try (Tripwire tripwire = new Tripwire(); TestTerminal add = TestTerminal.run(List.of(launcher().toString(),
                    "approvals", "add", "--", "touch", "made-by-the-agent"), env(root, tripwire), root.resolve("work"), 120, 40)) {
                String said = add.await("takes it back");
                Matcher m = Pattern.compile("remembered as (approved-[0-9a-f]+)").matcher(said);
                assertThat(m.find()).as(said).isTrue();
                id = m.group(1);
                assertThat(add.exitCode()).isZero();
            }
            Run check = shellgate(root, "check", "--", "touch", "made-by-the-agent");
            assertThat(check.out()).startsWith("ask: " + COMMAND).contains("approved by " + id + " (")
                    .contains("would run without asking");
            assertThat(check.code()).isEqualTo(10);
            assertThat(shellgate(root, "approvals", "list").out()).contains(id).contains("exactly " + COMMAND);

            try (AnthropicStub stub = new AnthropicStub(COMMAND); Tripwire tripwire = new Tripwire();
                    TestTerminal terminal = ClaudeDialogTest.claude(root, stub, tripwire, List.of(), "default")) {
                ClaudeDialogTest.awaitToolResult(stub);
                assertThat(root.resolve("work/made-by-the-agent")).exists();
                assertThat(screen(terminal)).doesNotContain("Doyouwanttoproceed");
            }
            JsonNode approved = records(root, 1).get(0);
            assertThat(approved.path("step").asText()).isEqualTo("memory");
            assertThat(approved.path("run").asBoolean(false)).isTrue();

            Run revoke = shellgate(root, "approvals", "revoke", id);
            assertThat(revoke.code()).as(revoke.toString()).isZero();
            Files.delete(root.resolve("work/made-by-the-agent"));
            try (AnthropicStub stub = new AnthropicStub(COMMAND); Tripwire tripwire = new Tripwire();
                    TestTerminal terminal = ClaudeDialogTest.claude(root, stub, tripwire, List.of(), "default")) {
                assertThat(terminal.awaitOnScreen("Do you want to proceed?")).contains("shellgateask");
                terminal.type("\u001b");
                terminal.awaitOnScreen("Interrupted");
            }
            assertThat(root.resolve("work/made-by-the-agent")).doesNotExist();
            assertThat(shellgate(root, "check", "--", "touch", "made-by-the-agent").out()).doesNotContain("approved by");
        } finally {
            Agents.stopServer(root);
        }
    }

    /** What the terminal showed so far, without control sequences and white space. */
    private static String screen(TestTerminal terminal) {
        return terminal.rest().replaceAll("\u001b\\[[0-9;?<>=]*[ -/]*[@-~]", "")
                .replaceAll("\u001b\\][^\u0007\u001b]*(\u0007|\u001b\\\\)", "").replaceAll("\u001b.", "")
                .replaceAll("\\s+", "");
    }

    /** The first {@code n} audit records of {@link #COMMAND}, waiting for them (PostToolUse's comes after the tool). */
    private static List<JsonNode> records(Path root, int n) throws Exception {
        return records(root, COMMAND, n);
    }

    /** The first {@code n} audit records of {@code line}, waiting for them. */
    private static List<JsonNode> records(Path root, String line, int n) throws Exception {
        List<JsonNode> made = new ArrayList<>();
        for (int i = 0; i < 300 && made.size() < n; i++) {
            made = ClaudeDialogTest.audit(root).stream().filter(r -> r.path("cmd").asText().equals(line)).toList();
            Thread.sleep(100);
        }
        assertThat(made).as(made.toString()).hasSizeGreaterThanOrEqualTo(n);
        return made;
    }

    private record Run(int code, String out) {}

    /** Runs {@code shellgate ARGS} in the run's work folder with its home and state, as its person would. */
    private static Run shellgate(Path root, String... args) throws Exception {
        List<String> argv = new ArrayList<>(List.of(launcher().toString()));
        argv.addAll(List.of(args));
        try (Tripwire tripwire = new Tripwire()) {
            ProcessBuilder pb = new ProcessBuilder(argv).directory(root.resolve("work").toFile()).redirectErrorStream(true);
            pb.environment().clear();
            pb.environment().putAll(env(root, tripwire));
            Process p = pb.start();
            p.getOutputStream().close();
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            p.getInputStream().transferTo(out);
            return new Run(p.waitFor(), out.toString(StandardCharsets.UTF_8));
        }
    }

    private static Map<String, String> env(Path root, Tripwire tripwire) throws Exception {
        return Agents.environment(Files.createDirectories(root.resolve("home")), tripwire, Map.of(), Agents.shellgateEnv(root));
    }

    private static Path launcher() {
        return Path.of(System.getProperty("shellgate.launcher")).toAbsolutePath().normalize();
    }
}
