package io.shellgate.it.agents;

import java.util.Arrays;
import java.util.List;

/**
 * The coding agents the compatibility tests drive, each pinned to one npm release: their shell
 * envelopes and hook protocols change between releases (docs/agents.md records them per version).
 */
public enum Agent {
    CLAUDE_CODE("@anthropic-ai/claude-code", "2.1.328", new ClaudeCodeSetup()),
    GEMINI_CLI("@google/gemini-cli", "0.61.0", new GeminiCliSetup()),
    CODEX("@openai/codex", "0.169.0", new CodexSetup()),
    QWEN_CODE("@qwen-code/qwen-code", "0.24.4", new QwenCodeSetup()),
    COPILOT_CLI("@github/copilot", "1.0.102", new CopilotCliSetup()),
    OPENCODE("opencode-ai", "1.18.33", new OpenCodeSetup()),
    /** 7.7.7: the newest release whose platform package ({@code @kilocode/cli-linux-x64}) is on npm. */
    KILO("@kilocode/cli", "7.7.7", new KiloSetup()),
    PI("@mariozechner/pi-coding-agent", "0.73.1", new PiSetup());

    private final String npmPackage;
    private final String version;
    final AgentSetup setup;

    Agent(String npmPackage, String version, AgentSetup setup) {
        this.npmPackage = npmPackage;
        this.version = version;
        this.setup = setup;
    }

    public String npmPackage() {
        return npmPackage;
    }

    public String version() {
        return version;
    }

    /** {@code name@version}, as npm takes it. */
    public String spec() {
        return npmPackage + "@" + version;
    }

    /** The agent's name for shellgate ({@code shellgate hook NAME}, {@code wrap --agent NAME}). */
    public String hookName() {
        return name().toLowerCase(java.util.Locale.ROOT).replace('_', '-');
    }

    /** The name of the agent's shell tool, as its model calls it and its hooks see it. */
    public String shellTool() {
        return setup.shellTool();
    }

    static List<String> specs() {
        return Arrays.stream(values()).map(Agent::spec).toList();
    }
}
