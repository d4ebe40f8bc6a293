package io.shellgate.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@code shellgate hook AGENT} for the four agents' own hook protocols, answered by the warm judge
 * server (the client has no JVM to fall back on) and by a JVM of its own: the input each agent
 * sends, and the answer in the form that agent acts on.
 */
class HookAdaptersTest extends SandboxTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    /** The input {@code agent} sends before its shell tool runs {@code command} in {@code cwd}. */
    static String input(String agent, String command, Path cwd) {
        if (agent.equals("copilot-cli")) {
            // no event name: Copilot CLI's preToolUse hook gets toolName and toolArgs
            ObjectNode in = JSON.createObjectNode().put("sessionId", "8f0c2b7e-1111-4222-8333-944455556666")
                    .put("timestamp", 1_796_302_287_591L).put("cwd", cwd.toString()).put("toolName", "bash");
            in.putObject("toolArgs").put("command", command).put("description", "run it");
            return in.toString();
        }
        ObjectNode in = JSON.createObjectNode();
        in.put("session_id", "8f0c2b7e-1111-4222-8333-944455556666");
        in.put("cwd", cwd.toString());
        in.put("hook_event_name", switch (agent) {
            case "gemini-cli" -> "BeforeTool";
            // what shellgate's plugin for OpenCode sends
            case "opencode", "kilo" -> "tool.execute.before";
            // and shellgate's extension for Pi
            case "pi" -> "tool_call";
            default -> "PreToolUse";
        });
        in.put("tool_name", switch (agent) {
            case "claude-code", "codex" -> "Bash";
            case "opencode", "kilo", "pi" -> "bash";
            default -> "run_shell_command";
        });
        in.putObject("tool_input").put("command", command);
        return in.toString();
    }

    private String input(String agent, String command) {
        return input(agent, command, box.work);
    }

    private Map<String, String> client;

    /** The hook's answer; the first call of a test sets the client up (for SERVER: starts the server). */
    private Processes.Result hook(Sandbox.Mode mode, String agent, String input) throws Exception {
        if (client == null) {
            client = box.client(mode);
        }
        return box.shellgate(client, Sandbox.bytes(input), "hook", agent);
    }

    /** The decision word the answer gives, in the agent's own format; "" for no answer. */
    static String decision(String agent, Processes.Result r) throws Exception {
        if (r.out().isEmpty()) {
            return "";
        }
        JsonNode out = JSON.readTree(r.out());
        return switch (agent) {
            case "gemini-cli", "opencode", "kilo", "pi" -> out.path("decision").asText();
            case "copilot-cli" -> out.path("permissionDecision").asText();
            default -> out.path("hookSpecificOutput").path("permissionDecision").asText();
        };
    }

    /** The reason the answer gives, in the agent's own format. */
    static String reason(String agent, Processes.Result r) throws Exception {
        JsonNode out = JSON.readTree(r.out());
        return switch (agent) {
            case "gemini-cli", "opencode", "kilo", "pi" -> out.path("reason").asText();
            case "copilot-cli" -> out.path("permissionDecisionReason").asText();
            default -> out.path("hookSpecificOutput").path("permissionDecisionReason").asText();
        };
    }

    @ParameterizedTest(name = "{0} {1}")
    @CsvSource({"claude-code,SERVER", "claude-code,NO_SERVER", "gemini-cli,SERVER", "gemini-cli,NO_SERVER",
        "codex,SERVER", "codex,NO_SERVER", "qwen-code,SERVER", "qwen-code,NO_SERVER", "copilot-cli,SERVER",
        "copilot-cli,NO_SERVER", "opencode,SERVER", "opencode,NO_SERVER", "kilo,SERVER", "kilo,NO_SERVER", "pi,SERVER", "pi,NO_SERVER"})
    void eachAgentGetsAllowAskAndDenyInItsOwnFormat(String agent, Sandbox.Mode mode) throws Exception {
        Processes.Result ls = hook(mode, agent, input(agent, "ls -la"));
        assertThat(ls.code()).as(ls.toString()).isZero();
        // Codex acts only on a refusal: an allow says nothing and lets the call go on
        assertThat(decision(agent, ls)).as(ls.toString()).isEqualTo(agent.equals("codex") ? "" : "allow");

        Processes.Result touch = hook(mode, agent, input(agent, "touch made-by-hook"));
        assertThat(touch.code()).as(touch.toString()).isZero();
        if (agent.equals("codex") || agent.equals("gemini-cli") || agent.equals("opencode") || agent.equals("kilo")) {
            // Codex would run the command on an ask, Gemini CLI waits forever without a terminal,
            // OpenCode's plugins cannot show its prompt: a refusal that says how to approve
            assertThat(decision(agent, touch)).isEqualTo("deny");
            assertThat(reason(agent, touch)).contains("refused (not-read-only)").contains("shellgate approvals --watch")
                    .contains("a terminal of their own").doesNotContain("policy.toml")
                    .contains("\"touch made-by-hook\"");
        } else {
            assertThat(decision(agent, touch)).as(touch.toString()).isEqualTo("ask");
            assertThat(reason(agent, touch)).contains("not-read-only");
        }

        Processes.Result rm = hook(mode, agent, input(agent, "rm -rf ~"));
        assertThat(rm.code()).isZero();
        assertThat(decision(agent, rm)).as(rm.toString()).isEqualTo("deny");
        assertThat(reason(agent, rm)).contains("rm-recursive-critical");
        assertThat(box.work.resolve("made-by-hook")).doesNotExist();
    }

    @ParameterizedTest(name = "{0} {1}")
    @CsvSource({"gemini-cli,SERVER", "codex,NO_SERVER"})
    void anAgentThatCannotAskHasItsAskAnsweredByWhoeverWatches(String agent, Sandbox.Mode mode) throws Exception {
        // Gemini CLI and Codex have no ask of their own for a hook: a person watching with
        // shellgate approvals answers (within the agent's hook timeout)
        box.env.put("SHELLGATE_REVIEW_TIMEOUT_SECONDS", "600");
        hook(mode, agent, input(agent, "ls"));
        try (ApprovalsWatch watch = ApprovalsWatch.start(box)) {
            CompletableFuture<Processes.Result> approved = CompletableFuture.supplyAsync(() -> call(mode, agent,
                    "touch approved-by-watcher"), Processes::thread);
            assertThat(watch.awaitQuestion()).contains("hook").contains("touch approved-by-watcher");
            assertThat(watch.answer("y")).contains("once");
            Processes.Result r = approved.get(120, TimeUnit.SECONDS);
            assertThat(r.code()).as(r.toString()).isZero();
            assertThat(decision(agent, r)).as(r.toString()).isEqualTo(agent.equals("codex") ? "" : "allow");

            CompletableFuture<Processes.Result> refused = CompletableFuture.supplyAsync(() -> call(mode, agent,
                    "touch refused-by-watcher"), Processes::thread);
            assertThat(watch.awaitQuestion()).contains("touch refused-by-watcher");
            watch.answer("n");
            Processes.Result no = refused.get(120, TimeUnit.SECONDS);
            assertThat(decision(agent, no)).as(no.toString()).isEqualTo("deny");
            assertThat(reason(agent, no)).contains("refused by a person through shellgate approvals");
        }
        // the hook answers; the agent runs the command: here nothing ran
        assertThat(box.work.resolve("approved-by-watcher")).doesNotExist();
    }

    private Processes.Result call(Sandbox.Mode mode, String agent, String command) {
        try {
            return hook(mode, agent, input(agent, command));
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    @ParameterizedTest(name = "{0} {1}")
    @CsvSource({"claude-code,SERVER", "gemini-cli,NO_SERVER", "codex,SERVER", "qwen-code,NO_SERVER", "copilot-cli,SERVER",
        "opencode,NO_SERVER", "kilo,SERVER", "pi,SERVER"})
    void inputThatCannotBeReadIsRefusedAndOtherToolsAreLeftToTheAgent(String agent, Sandbox.Mode mode) throws Exception {
        Processes.Result garbage = hook(mode, agent, "{not json");
        assertThat(garbage.code()).isZero();
        assertThat(decision(agent, garbage)).isEqualTo("deny");
        Processes.Result noCommand = hook(mode, agent, input(agent, "x").replace("\"command\":\"x\"", "\"other\":1"));
        assertThat(decision(agent, noCommand)).as(noCommand.toString()).isEqualTo("deny");
        assertThat(reason(agent, noCommand)).contains("has no command");
        Processes.Result other = hook(mode, agent, input(agent, "ls").replace("\"tool_name\":\"", "\"tool_name\":\"Read")
                .replace("\"toolName\":\"", "\"toolName\":\"read_"));
        assertThat(other.code()).isZero();
        assertThat(other.out()).as(other.toString()).isEmpty();
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({"claude-code", "codex"})
    void theServerRelaysTheSameBytesAJvmOfItsOwnWouldPrint(String agent) throws Exception {
        // quotes, backslashes, a tab and text beyond ASCII travel through two layers of JSON
        String input = input(agent, "touch \"caf\u00e9 \\ x\"\tb");
        Processes.Result jvm = box.shellgate(box.client(Sandbox.Mode.NO_SERVER), Sandbox.bytes(input), "hook", agent);
        Processes.Result server = box.shellgate(box.client(Sandbox.Mode.SERVER), Sandbox.bytes(input), "hook", agent);
        if (agent.equals("codex")) {
            // its refusal quotes the command, in the approval it suggests
            assertThat(jvm.out()).contains("caf\u00e9");
        }
        assertThat(server.outBytes()).as(server.toString()).isEqualTo(jvm.outBytes());
        assertThat(server.errBytes()).isEqualTo(jvm.errBytes());
        assertThat(server.code()).isEqualTo(jvm.code());
    }

    @ParameterizedTest(name = "{0} {1}")
    @CsvSource({"claude-code,SERVER", "gemini-cli,NO_SERVER"})
    void aLongInputIsReadWholeAndOneOverTheLimitIsRefused(String agent, Sandbox.Mode mode) throws Exception {
        // many reads' worth of a pipe (and just under the judge's 64 KiB for a line): the part that
        // decides comes last
        String padding = "# " + "x".repeat(60_000);
        Processes.Result rm = hook(mode, agent, input(agent, "ls " + padding + "\nrm -rf ~"));
        assertThat(decision(agent, rm)).as(rm.toString()).isEqualTo("deny");
        assertThat(reason(agent, rm)).contains("rm-recursive-critical");
        Processes.Result ls = hook(mode, agent, input(agent, "ls " + padding));
        assertThat(ls.code()).as(ls.toString()).isZero();
        assertThat(decision(agent, ls)).as(ls.toString()).isEqualTo("allow");

        Processes.Result tooLong = hook(mode, agent, input(agent, "ls # " + "x".repeat(1 << 20)));
        assertThat(tooLong.code()).as(tooLong.toString()).isEqualTo(2);
        assertThat(tooLong.err()).contains("larger than 1 MiB");
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({"claude-code", "gemini-cli", "codex", "qwen-code", "copilot-cli", "opencode", "kilo", "pi"})
    void aHookThatCannotRunBlocksWithExitCode2(String agent) throws Exception {
        Map<String, String> env = new HashMap<>(box.env);
        env.put("SHELLGATE_JAVA_HOME", dir.resolve("no-jdk").toString());
        env.put("SHELLGATE_NO_SERVER", "1");
        Processes.Result r = box.shellgate(env, Sandbox.bytes(input(agent, "ls")), "hook", agent);
        // exit 2 is "block" for all four; Gemini CLI takes 1 as allow-with-warning
        assertThat(r.code()).isEqualTo(2);
        assertThat(r.err()).contains("not a Java 25");
        Processes.Result unknown = box.shellgate("hook", "cursor");
        assertThat(unknown.code()).isEqualTo(2);
        assertThat(unknown.err()).contains("unknown agent 'cursor'").contains("claude-code, gemini-cli, codex, qwen-code");
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({"SERVER", "NO_SERVER"})
    void copilotsTextTypedIntoItsShellIsJudgedItsArgumentsMayComeAsTextAndPowerShellIsRefused(Sandbox.Mode mode)
            throws Exception {
        String agent = "copilot-cli";
        // write_bash types input into a shell the bash tool started: judged as a command line
        ObjectNode typed = (ObjectNode) JSON.readTree(input(agent, "x", box.work));
        typed.put("toolName", "write_bash");
        typed.putObject("toolArgs").put("shellId", "0").put("input", "rm -rf ~\n");
        Processes.Result rm = hook(mode, agent, typed.toString());
        assertThat(decision(agent, rm)).as(rm.toString()).isEqualTo("deny");
        assertThat(reason(agent, rm)).contains("rm-recursive-critical");
        typed.putObject("toolArgs").put("shellId", "0").put("input", "ls -la");
        assertThat(decision(agent, hook(mode, agent, typed.toString()))).isEqualTo("allow");

        // older releases send the arguments as JSON text
        ObjectNode text = (ObjectNode) JSON.readTree(input(agent, "x", box.work));
        text.put("toolArgs", JSON.createObjectNode().put("command", "rm -rf ~").toString());
        Processes.Result asText = hook(mode, agent, text.toString());
        assertThat(decision(agent, asText)).as(asText.toString()).isEqualTo("deny");
        assertThat(reason(agent, asText)).contains("rm-recursive-critical");
        text.put("toolArgs", "{not json");
        Processes.Result broken = hook(mode, agent, text.toString());
        assertThat(decision(agent, broken)).as(broken.toString()).isEqualTo("deny");
        assertThat(reason(agent, broken)).contains("toolArgs is not JSON");

        ObjectNode ps = (ObjectNode) JSON.readTree(input(agent, "Get-ChildItem", box.work));
        ps.put("toolName", "powershell");
        Processes.Result power = hook(mode, agent, ps.toString());
        assertThat(decision(agent, power)).as(power.toString()).isEqualTo("deny");
        assertThat(reason(agent, power)).contains("PowerShell");
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({"SERVER", "NO_SERVER"})
    void openCodesBatchToolWhichSkipsPluginHooksIsRefusedAndItsWorkdirIsWhereTheCommandIsJudged(Sandbox.Mode mode)
            throws Exception {
        String agent = "opencode";
        ObjectNode batch = (ObjectNode) JSON.readTree(input(agent, "x", box.work));
        batch.put("tool_name", "batch");
        batch.putObject("tool_input").putArray("tool_calls").addObject().put("tool", "bash").putObject("parameters")
                .put("command", "ls");
        Processes.Result r = hook(mode, agent, batch.toString());
        assertThat(decision(agent, r)).as(r.toString()).isEqualTo("deny");
        assertThat(reason(agent, r)).contains("without their plugin hooks");

        // OpenCode's workdir may be relative to the session's directory
        java.nio.file.Files.createDirectories(box.work.resolve("sub"));
        ObjectNode inSub = (ObjectNode) JSON.readTree(input(agent, "ls -la", box.work));
        ((ObjectNode) inSub.get("tool_input")).put("workdir", "sub");
        Processes.Result ls = hook(mode, agent, inSub.toString());
        assertThat(decision(agent, ls)).as(ls.toString()).isEqualTo("allow");
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({"SERVER", "NO_SERVER"})
    void kilosBackgroundProcessToolIsJudgedWhenItStartsACommandAndLeftToKiloOtherwise(Sandbox.Mode mode) throws Exception {
        String agent = "kilo";
        ObjectNode start = (ObjectNode) JSON.readTree(input(agent, "x", box.work));
        start.put("tool_name", "background_process");
        start.putObject("tool_input").put("action", "start").put("command", "rm -rf ~").put("description", "serve");
        Processes.Result rm = hook(mode, agent, start.toString());
        assertThat(decision(agent, rm)).as(rm.toString()).isEqualTo("deny");
        assertThat(reason(agent, rm)).contains("rm-recursive-critical");
        ((ObjectNode) start.get("tool_input")).put("command", "ls -la");
        assertThat(decision(agent, hook(mode, agent, start.toString()))).isEqualTo("allow");
        // list, status, logs, stop and restart start nothing the start did not
        ObjectNode stop = (ObjectNode) JSON.readTree(input(agent, "x", box.work));
        stop.put("tool_name", "background_process");
        stop.putObject("tool_input").put("action", "stop").put("id", "bgp_1");
        Processes.Result other = hook(mode, agent, stop.toString());
        assertThat(other.code()).isZero();
        assertThat(other.out()).as(other.toString()).isEmpty();
        // OpenCode's background_process is not a tool of OpenCode's: not judged there
        assertThat(hook(mode, "opencode", start.toString()).out()).isEmpty();
    }
}
