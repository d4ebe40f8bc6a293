package io.shellgate.it.agents;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A real agent from npm (Pi) under {@code shellgate wrap} with no hook: its own file tool, which
 * starts no process and so meets no shell entry, cannot add an approval to the user policy, change
 * the project's policy or the audit log (the namespace shows them read-only), while the judge
 * server outside the namespace still writes the audit log.
 */
class AgentWrapFilesTest {

    private static final String POLICY = "version = 1\n";

    @BeforeAll
    static void agents() throws Exception {
        Agents.installOrSkip();
    }

    private static AgentResult run(Path root, AgentRun run) throws Exception {
        Path launcher = Path.of(System.getProperty("shellgate.launcher")).toAbsolutePath().normalize();
        for (Map.Entry<String, String> e : Agents.shellgateEnv(root).entrySet()) {
            run = run.withEnv(e.getKey(), e.getValue());
        }
        return Agents.run(run.withPrefix(List.of(launcher.toString(), "wrap", "--layer", "namespace", "--")), root);
    }

    /** Pi's {@code write} tool, as its model calls it. */
    private static AgentRun write(Path file, String text) {
        return AgentRun.of(Agent.PI, "unused").withToolCall("write",
                StubModel.object().put("path", file.toString()).put("content", text).toString());
    }

    @Test
    void theAgentsFileToolCannotChangeTheGatesFilesWhileTheServerStillWritesTheAuditLog() throws Exception {
        Path root = Agents.newRunFolder("PI-wrap-gate-files");
        Path userPolicy = Files.createDirectories(root.resolve("home/.config/shellgate")).resolve("policy.toml");
        Files.writeString(userPolicy, POLICY);
        // the project is a git repository: its policy is .shellgate/policy.toml at the repository's root
        Path work = Files.createDirectories(root.resolve("work"));
        Process git = new ProcessBuilder("git", "init", "-q", work.toString()).redirectErrorStream(true).start();
        assertThat(git.waitFor()).as(new String(git.getInputStream().readAllBytes())).isZero();
        Path projectPolicy = Files.createDirectories(work.resolve(".shellgate")).resolve("policy.toml");
        Files.writeString(projectPolicy, POLICY);
        Path audit = root.resolve("state/audit.jsonl");

        // a first command, judged by the server wrap starts, begins the audit log
        AgentResult first = run(root, AgentRun.of(Agent.PI, "ls -la"));
        assertThat(first.exitCode()).as(first.toString()).isZero();
        assertThat(audit).as(first.toString()).isRegularFile();
        String auditBefore = Files.readString(audit);

        Map<Path, String> writes = Map.of(
                userPolicy, POLICY + "\n[[approved]]\nid = \"by-the-agent\"\ncommand = \"touch made-by-the-agent\"\n",
                projectPolicy, POLICY + "\n[[allow]]\ncommand = \"touch made-by-the-agent\"\n",
                audit, "");
        for (Map.Entry<Path, String> w : writes.entrySet()) {
            AgentResult r = run(root, write(w.getKey(), w.getValue()));
            assertThat(r.timedOut()).as(r.toString()).isFalse();
            assertThat(r.toolResults()).as(w.getKey() + ": " + r).singleElement().asString().containsIgnoringCase("read-only");
            assertThat(r.tripwire()).isEmpty();
        }
        assertThat(userPolicy).hasContent(POLICY);
        assertThat(projectPolicy).hasContent(POLICY);
        assertThat(Files.readString(audit)).isEqualTo(auditBefore);

        // what the agent's file tool could not add does not let the command run; the server logs it
        AgentResult touch = run(root, AgentRun.of(Agent.PI, "touch made-by-the-agent"));
        assertThat(touch.toolResults()).as(touch.toString()).singleElement().asString().contains("shellgate");
        assertThat(work.resolve("made-by-the-agent")).doesNotExist();
        String auditAfter = Files.readString(audit);
        assertThat(auditAfter).startsWith(auditBefore).contains("\"cmd\":\"touch made-by-the-agent\"");
    }
}
