package io.shellgate.launcher.internal.wrap;

import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/** The agents whose wrapper texts shellgate knows, and how {@code wrap} recognises one from its command. */
public final class KnownAgents {

    /** Their ids, as {@code wrap --agent} and the protocol's {@code agent} field name them. */
    public static final List<String> IDS = List.of("claude-code", "gemini-cli", "codex", "qwen-code", "copilot-cli", "opencode", "kilo", "pi");

    private KnownAgents() {}

    /**
     * The agent a command starts: its program's name ({@code claude}, {@code gemini},
     * {@code codex}, {@code qwen}, {@code copilot}, {@code opencode}, {@code kilo}, {@code pi}, with or without {@code .js}/{@code .exe}), or a script of the
     * agent's npm package given to {@code node} or {@code npx}.
     */
    public static Optional<String> of(List<String> command) {
        for (int i = 0; i < Math.min(2, command.size()); i++) {
            String word = command.get(i);
            String name = Path.of(word).getFileName() == null ? word : Path.of(word).getFileName().toString();
            for (String ext : List.of(".js", ".cjs", ".mjs", ".exe")) {
                if (name.endsWith(ext)) {
                    name = name.substring(0, name.length() - ext.length());
                }
            }
            Optional<String> found = switch (name) {
                case "claude" -> Optional.of("claude-code");
                case "gemini" -> Optional.of("gemini-cli");
                case "codex" -> Optional.of("codex");
                case "qwen" -> Optional.of("qwen-code");
                case "copilot" -> Optional.of("copilot-cli");
                case "opencode" -> Optional.of("opencode");
                case "kilo", "kilocode" -> Optional.of("kilo");
                case "pi" -> Optional.of("pi");
                default -> Optional.empty();
            };
            if (found.isEmpty()) {
                found = word.contains("@anthropic-ai/claude-code") ? Optional.of("claude-code")
                        : word.contains("@google/gemini-cli") ? Optional.of("gemini-cli")
                        : word.contains("@openai/codex") ? Optional.of("codex")
                        : word.contains("@qwen-code/qwen-code") ? Optional.of("qwen-code")
                        : word.contains("@github/copilot") ? Optional.of("copilot-cli")
                        : word.contains("/opencode-ai/") ? Optional.of("opencode")
                        : word.contains("@kilocode/cli") ? Optional.of("kilo")
                        : word.contains("@mariozechner/pi-coding-agent") ? Optional.of("pi") : Optional.empty();
            }
            if (found.isPresent()) {
                return found;
            }
            if (!name.equals("node") && !name.equals("npx") && !name.equals("env")) {
                break;
            }
        }
        return Optional.empty();
    }
}
