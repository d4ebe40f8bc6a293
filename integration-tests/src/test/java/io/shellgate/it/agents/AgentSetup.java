package io.shellgate.it.agents;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * What differs between the agents: the protocol of their stub model, the files and variables that
 * point them at it (with telemetry and update checks off), how to start them non-interactively in
 * their "run without asking" mode, and where their hook goes.
 */
sealed interface AgentSetup permits ClaudeCodeSetup, GeminiCliSetup, CodexSetup, QwenCodeSetup, CopilotCliSetup,
        OpenCodeSetup, KiloSetup, PiSetup {

    String shellTool();

    StubModel stub(AgentRun run) throws IOException;

    /** Writes the agent's configuration under its private HOME. */
    void configure(Path home, StubModel stub, AgentRun run) throws IOException;

    /** The agent's own variables: dummy keys, the stub's address, switches for telemetry and updates. */
    Map<String, String> env(StubModel stub);

    /** Writes a JSON settings file, with the run's extra settings merged in. */
    static void writeSettings(Path file, ObjectNode settings, AgentRun run) throws IOException {
        if (run.settings() != null) {
            StubModel.JSON.readerForUpdating(settings).readValue(run.settings());
        }
        java.nio.file.Files.createDirectories(file.getParent());
        java.nio.file.Files.writeString(file, settings.toPrettyString());
    }

    /** The agent's command line, from the folder where the npm packages were installed. */
    List<String> argv(Path install, AgentRun run);

    /** The shell command in what the agent's pre-tool hook is given. */
    default String hookCommand(com.fasterxml.jackson.databind.JsonNode input) {
        return input.path("tool_input").path("command").asText();
    }
}
