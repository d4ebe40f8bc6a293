package io.shellgate.it.agents;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The file tools of the agents whose hook sees them (Copilot CLI's {@code create}, OpenCode's and
 * Pi's {@code write}), driven by their stub models with shellgate's hook, plugin or extension in
 * place: a write to shellgate's own policy is refused with shellgate's reason and nothing is
 * written; a write to an ordinary file of the project goes through.
 */
@Execution(ExecutionMode.CONCURRENT)
class AgentFileToolTest {

    @BeforeAll
    static void agents() throws Exception {
        Agents.installOrSkip();
    }

    /** The agent's file tool writing {@code text} to {@code file}, as its model calls it. */
    private static AgentRun write(Agent agent, Path file, String text) {
        String args = switch (agent) {
            case COPILOT_CLI -> StubModel.object().put("path", file.toString()).put("file_text", text).toString();
            case OPENCODE, KILO -> StubModel.object().put("filePath", file.toString()).put("content", text).toString();
            case PI -> StubModel.object().put("path", file.toString()).put("content", text).toString();
            default -> throw new IllegalArgumentException(agent + " is not driven to its file tool here");
        };
        String tool = agent == Agent.COPILOT_CLI ? "create" : "write";
        return AgentRun.of(agent, "unused").withToolCall(tool, args);
    }

    private static AgentResult run(AgentRun run, Path root) throws Exception {
        Path launcher = Path.of(System.getProperty("shellgate.launcher")).toAbsolutePath().normalize();
        for (Map.Entry<String, String> e : Agents.shellgateEnv(root).entrySet()) {
            run = run.withEnv(e.getKey(), e.getValue());
        }
        Path client = launcher.resolveSibling("shellgate-hook");
        String hook = Files.isExecutable(client) ? Hooks.word(client.toString()) + " " + run.agent().hookName()
                : Hooks.word(launcher.toString()) + " hook " + run.agent().hookName();
        return Agents.run(run.withHook(hook), root);
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(value = Agent.class, names = {"COPILOT_CLI", "OPENCODE", "KILO", "PI"})
    void aWriteToShellgatesPolicyIsRefusedAndAnOrdinaryWriteGoesThrough(Agent agent) throws Exception {
        Path root = Agents.newRunFolder(agent + "-file-policy");
        Path policy = root.resolve("home/.config/shellgate/policy.toml");
        AgentResult refused = run(write(agent, policy, "[[allow]]\ncommand = \"rm -rf ~\"\n"), root);
        assertThat(refused.timedOut()).as(refused.toString()).isFalse();
        assertThat(refused.toolResults()).as(refused.toString()).singleElement().asString().contains("shellgate")
                .contains("gate-file");
        assertThat(policy).as(refused.toString()).doesNotExist();
        assertThat(refused.tripwire()).isEmpty();

        Path other = Agents.newRunFolder(agent + "-file-notes");
        Path notes = other.resolve("work/notes.txt");
        AgentResult written = run(write(agent, notes, "notes\n"), other);
        assertThat(written.timedOut()).as(written.toString()).isFalse();
        assertThat(notes).as(written.toString()).hasContent("notes\n");
        assertThat(written.tripwire()).isEmpty();
        assertThat(written.toolResults()).as(written.toString()).singleElement().asString().doesNotContain("refused");
    }
}
