package io.shellgate.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@code shellgate doctor}'s report on the agents found on the machine, from real settings files in the sandbox's
 * home written by {@code shellgate setup} or by hand.
 */
class DoctorAgentsTest extends SandboxTest {

    /** The agents part of doctor's output (from "agents:" to the end). */
    private String agents() throws Exception {
        Processes.Result r = box.shellgate("doctor");
        assertThat(r.out()).as(r.toString()).contains("\nagents:   ");
        return r.out().substring(r.out().indexOf("\nagents:   ") + 1);
    }

    /** The lines of one agent's block. */
    private static String block(String report, String name) {
        int start = report.indexOf(name + " (");
        assertThat(start).as(name + " in\n" + report).isNotNegative();
        int end = report.indexOf("    wrap:     ", start);
        return report.substring(start, report.indexOf('\n', end));
    }

    @Test
    void noAgentHereIsSaid() throws Exception {
        assertThat(agents()).startsWith("agents:   no agent found");
    }

    @Test
    void aHookWrittenBySetupIsClosedAndUnchangedUntilSomeoneEditsTheFile() throws Exception {
        assertThat(box.shellgate("setup", "claude-code").code()).isZero();
        Path settings = box.home.resolve(".claude/settings.json");
        String claude = block(agents(), "Claude Code");
        assertThat(claude).contains("no program on PATH, settings in " + box.home.resolve(".claude"))
                .contains("user:     shellgate's hook in " + settings)
                .contains("fails:  closed: a hook that cannot run blocks the call")
                .contains("since:  unchanged since shellgate setup wrote it at ")
                .contains("project:  no shellgate hook in " + box.work.resolve(".claude/settings.json"))
                .contains("wrap:     yes");

        // the agent (or anyone) takes the fail-closed switch out
        Files.writeString(settings, Files.readString(settings).replace("\"onFailure\" : \"block\"", "\"x\" : 1"));
        claude = block(agents(), "Claude Code");
        assertThat(claude).contains("fails:  OPEN: without \"onFailure\": \"block\"")
                .contains("since:  CHANGED since shellgate setup wrote it at ");

        // setup again puts it back and records the file anew
        assertThat(box.shellgate("setup", "claude-code").code()).isZero();
        assertThat(block(agents(), "Claude Code")).contains("fails:  closed").contains("since:  unchanged");
        assertThat(box.shellgate("setup", "claude-code", "--remove").code()).isZero();
        assertThat(block(agents(), "Claude Code")).contains("user:     no shellgate hook in " + settings);
    }

    @Test
    void eachAgentsOwnWayOfFailingIsReported() throws Exception {
        // Gemini CLI: a hook written by hand with a time-out below shellgate's answer time
        Path gemini = Files.createDirectories(box.home.resolve(".gemini")).resolve("settings.json");
        Files.writeString(gemini, """
                {"hooks": {"BeforeTool": [{"matcher": "run_shell_command", "hooks": [{"type": "command",
                 "command": "/opt/shellgate/bin/shellgate-hook gemini-cli", "timeout": 30000}]}]}}
                """);
        // Copilot CLI in the project, OpenCode's plugin for the user, Codex's program on PATH without its hook
        assertThat(box.shellgate("setup", "copilot-cli", "--project").code()).isZero();
        assertThat(box.shellgate("setup", "opencode").code()).isZero();
        Path tools = Files.createDirectories(box.root.resolve("tools"));
        Files.writeString(tools.resolve("codex"), "#!/bin/sh\nexit 0\n");
        Files.setPosixFilePermissions(tools.resolve("codex"), PosixFilePermissions.fromString("rwxr-xr-x"));
        box.env.put("PATH", tools + ":/usr/bin:/bin");
        // Kilo's folder, and an agent with nothing here at all (Qwen Code) is not listed
        Files.createDirectories(box.home.resolve(".config/kilo"));
        String report = agents();

        assertThat(block(report, "Gemini CLI")).contains("user:     shellgate's hook in " + gemini)
                .contains("fails:  OPEN: Gemini CLI lets the call through after 30000 ms, before shellgate's 45 s")
                .contains("since:  no record of shellgate setup writing it");
        Path copilot = box.work.resolve(".github/hooks/shellgate.json");
        assertThat(block(report, "Copilot CLI")).contains("project:  shellgate's hook in " + copilot)
                .contains("fails:  OPEN on a time-out (60 s)")
                .contains("warning:  " + copilot + " is in the project: the agent can edit it itself")
                .contains("since:  unchanged since shellgate setup wrote it");
        assertThat(block(report, "OpenCode")).contains("user:     shellgate's plugin in "
                + box.home.resolve(".config/opencode/plugin/shellgate.js")).contains("fails:  closed: the plugin refuses");
        assertThat(block(report, "Codex")).contains("program " + tools.resolve("codex"))
                .contains("user:     no shellgate hook in " + box.home.resolve(".codex/hooks.json"));
        assertThat(block(report, "Kilo")).contains("settings in " + box.home.resolve(".config/kilo"))
                .contains("no shellgate plugin in");
        assertThat(report).doesNotContain("Qwen Code").doesNotContain("Claude Code").doesNotContain("Pi (pi)");
        for (String name : List.of("Gemini CLI", "Copilot CLI", "OpenCode", "Codex", "Kilo")) {
            assertThat(block(report, name)).as(name).contains("wrap:     yes");
        }
    }
}
